import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_START, type TestApp } from '../../../test/harness.js';
import { PanelClient, panelUser, signInPanelUser } from '../../../test/panel.js';
import { auditRecords, memberships, sessions, users } from '../../platform/db/schema.js';
import { addMembership } from '../memberships/index.js';
import { createUser } from './create-user.js';

let t: TestApp;
let client: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  client = new PanelClient(t);
});
afterAll(() => t?.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const auditOf = (userId: string) => t.ctx.db.select().from(auditRecords).where(eq(auditRecords.actorUserId, userId));

describe('POST /panel/api/session (sign in)', () => {
  it('sets an httpOnly, SameSite=Lax cookie on /panel, stores only its hash, and answers the session', async () => {
    t.clock.set(TEST_START);
    const company = await t.company('Escola Norte');
    const { user, email, password } = await panelUser(t, { companyId: company.id, permissions: ['forms', 'responses'], name: 'Ana Lima' });
    const res = await client.post(null, '/panel/api/session', { email: email.toUpperCase(), password });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'quorum_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/panel', maxAge: 30 * 24 * 3600 });
    expect(cookie.secure).toBeUndefined();
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.json().data).toEqual({
      user: { id: user.id, email, name: 'Ana Lima', language: null, secondFactor: false },
      companies: [{ id: company.id, name: 'Escola Norte', owner: false, permissions: ['forms', 'responses'] }],
      company: { id: company.id, name: 'Escola Norte' },
      permissions: ['forms', 'responses'],
      owner: false,
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const [row] = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row.tokenHash.equals(sha256(cookie.value))).toBe(true);
    expect(row).toMatchObject({ companyId: company.id, ip: '127.0.0.1', expiresAt: new Date(Date.parse(TEST_START) + 30 * 24 * 3600 * 1000) });
    const { rows } = await t.ctx.pool.query(`SELECT count(*)::int AS n FROM sessions WHERE position($1 in row(sessions.*)::text) > 0`, [cookie.value]);
    expect(rows[0].n).toBe(0);
    const audit = await auditOf(user.id);
    expect(audit).toEqual([
      expect.objectContaining({ action: 'session.signed_in', companyId: company.id, actorEmail: email, ip: '127.0.0.1', details: { sessionId: row.id, method: 'password' } }),
    ]);
    const described = await client.get({ cookie: cookie.value, csrfToken: '', user, password, companyId: company.id }, '/panel/api/session');
    expect(described.json().data.csrfToken).toBe(res.json().data.csrfToken);
  });

  it('answers an unknown address and a wrong password alike (message and work), and audits both', async () => {
    const { user, email } = await panelUser(t);
    const wrong = async () => {
      const started = performance.now();
      const res = await client.post(null, '/panel/api/session', { email, password: 'not the password at all' });
      return { res, ms: performance.now() - started };
    };
    const unknown = async () => {
      const started = performance.now();
      const res = await client.post(null, '/panel/api/session', { email: `nobody-${Date.now()}@school.test`, password: 'not the password at all' });
      return { res, ms: performance.now() - started };
    };
    await wrong(); // warm the dummy hash
    const tries = [];
    for (let i = 0; i < 3; i += 1) tries.push({ wrong: await wrong(), unknown: await unknown() });
    for (const attempt of tries) {
      for (const { res } of [attempt.wrong, attempt.unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.cookies).toEqual([]);
      }
      expect(attempt.unknown.res.json()).toEqual(attempt.wrong.res.json());
    }
    // Both verify an argon2id hash: without the dummy hash an unknown address would answer many times faster.
    const median = (values: number[]) => values.sort((a, b) => a - b)[1];
    expect(median(tries.map((x) => x.unknown.ms))).toBeGreaterThan(median(tries.map((x) => x.wrong.ms)) * 0.4);
    const audit = await auditOf(user.id);
    expect(audit.filter((record) => record.action === 'session.sign_in_failed')).toHaveLength(4);
    const anonymous = await t.ctx.pool.query(`SELECT actor_email, company_id FROM audit_records WHERE action = 'session.sign_in_failed' AND actor_user_id IS NULL`);
    expect(anonymous.rows.length).toBeGreaterThanOrEqual(3);
    expect(anonymous.rows[0].company_id).toBeNull();
  });

  it('refuses a user who has no password yet with the same answer', async () => {
    const user = await createUser(t.ctx.db, t.ctx, { email: `new-${Date.now()}@school.test`, name: 'New' });
    const res = await client.post(null, '/panel/api/session', { email: user.email, password: 'whatever-it-is' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHORIZED');
  });

  it('refuses malformed input with field errors', async () => {
    const res = await client.post(null, '/panel/api/session', { email: 'not-an-address', password: '', extra: 1 });
    expect(res.statusCode).toBe(400);
    const paths = res.json().error.details.fields.map((field: { path: string }) => field.path);
    expect(paths).toEqual(expect.arrayContaining(['email', 'password']));
  });

  it('rotates: signing in again from the same browser ends the session it held', async () => {
    const session = await signInPanelUser(t);
    const again = await client.post(session, '/panel/api/session', { email: session.user.email, password: session.password });
    expect(again.statusCode).toBe(200);
    const fresh = again.cookies.find((c) => c.name === 'quorum_session')!.value;
    expect(fresh).not.toBe(session.cookie);
    expect((await client.get(session, '/panel/api/session')).statusCode).toBe(401);
    expect((await client.get({ ...session, cookie: fresh }, '/panel/api/session')).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, session.user.id))).toHaveLength(1);
  });

  it('marks the cookie Secure when the panel is served over https', async () => {
    const secure = await startTestApp({ config: { publicPanelUrl: 'https://panel.school.test/panel' } });
    try {
      const { email, password } = await panelUser(secure);
      const res = await new PanelClient(secure).post(null, '/panel/api/session', { email, password });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === 'quorum_session')).toMatchObject({ secure: true, httpOnly: true });
      // the origin is the https one now
      const plain = await new PanelClient(secure).post(null, '/panel/api/session', { email, password }, { origin: 'http://localhost:3000' });
      expect(plain.statusCode).toBe(403);
    } finally {
      await secure.close();
    }
  });
});

describe('session lifetime', () => {
  it('expires after 12 idle hours; activity keeps it alive until the absolute 30 days', async () => {
    t.clock.set(TEST_START);
    const session = await signInPanelUser(t);
    t.clock.advance(11 * 3600 * 1000);
    expect((await client.get(session, '/panel/api/session')).statusCode).toBe(200);
    t.clock.advance(11 * 3600 * 1000);
    expect((await client.get(session, '/panel/api/session')).statusCode).toBe(200);
    t.clock.advance(12 * 3600 * 1000);
    expect((await client.get(session, '/panel/api/session')).statusCode).toBe(401);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, session.user.id))).toEqual([]);

    t.clock.set(TEST_START);
    const busy = await signInPanelUser(t);
    const hour = 3600 * 1000;
    // a request every 11 hours keeps it from idling out, until the absolute expiry
    for (let elapsed = 11 * hour; elapsed < 30 * 24 * hour; elapsed += 11 * hour) {
      t.clock.set(Date.parse(TEST_START) + elapsed);
      expect((await client.get(busy, '/panel/api/session')).statusCode).toBe(200);
    }
    t.clock.set(Date.parse(TEST_START) + 30 * 24 * 3600 * 1000);
    expect((await client.get(busy, '/panel/api/session')).statusCode).toBe(401);
  });
});

describe('DELETE /panel/api/session (sign out)', () => {
  it('ends this session only, clears the cookie and audits it', async () => {
    const session = await signInPanelUser(t);
    const second = await client.signIn(session.user.email, session.password);
    const res = await client.delete(session, '/panel/api/session');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { signedOut: true } });
    const cleared = res.cookies.find((c) => c.name === 'quorum_session')!;
    expect(cleared).toMatchObject({ value: '', path: '/panel' });
    expect((await client.get(session, '/panel/api/session')).statusCode).toBe(401);
    expect((await client.get({ ...session, ...second }, '/panel/api/session')).statusCode).toBe(200);
    expect((await auditOf(session.user.id)).map((record) => record.action)).toContain('session.signed_out');
  });

  it('needs the CSRF token', async () => {
    const session = await signInPanelUser(t);
    const res = await client.delete(session, '/panel/api/session', { csrf: false });
    expect(res.statusCode).toBe(403);
    expect((await client.get(session, '/panel/api/session')).statusCode).toBe(200);
  });
});

describe('PUT /panel/api/session/company', () => {
  it('moves the session to another company of the user; one they do not belong to is 404', async () => {
    const session = await signInPanelUser(t, { permissions: ['forms'] });
    const second = await t.company('Escola Sul');
    await addMembership(t.ctx.db, t.ctx, { companyId: second.id, userId: session.user.id, permissions: [], owner: true });
    const foreign = await t.company('Someone Else');
    const refused = await client.put(session, '/panel/api/session/company', { companyId: foreign.id });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('NOT_FOUND');
    const moved = await client.put(session, '/panel/api/session/company', { companyId: second.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ company: { id: second.id, name: 'Escola Sul' }, owner: true, permissions: expect.arrayContaining(['forms', 'settings', 'integrations']) });
    expect(moved.json().data.companies).toHaveLength(2);
    const [row] = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, session.user.id));
    expect(row.companyId).toBe(second.id);
    const malformed = await client.put(session, '/panel/api/session/company', { companyId: 'not-a-uuid' });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('users', () => {
  it('keeps one account per address across companies, whatever its case', async () => {
    const email = `Unique-${Date.now()}@School.test`;
    await createUser(t.ctx.db, t.ctx, { email, name: 'First' });
    await expect(createUser(t.ctx.db, t.ctx, { email: email.toLowerCase(), name: 'Second' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [expect.objectContaining({ path: 'email', code: 'not_unique' })] },
    });
    expect(await t.ctx.db.select().from(users).where(eq(users.name, 'Second'))).toEqual([]);
  });

  it('stores an argon2id hash, never the password', async () => {
    const { user, password } = await panelUser(t);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.passwordHash).not.toContain(password);
    expect(await t.ctx.db.select().from(memberships).where(eq(memberships.userId, user.id))).toHaveLength(1);
  });
});
