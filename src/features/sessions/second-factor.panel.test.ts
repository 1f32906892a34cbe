import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { PanelClient, signInPanelUser, type PanelSignIn } from '../../../test/panel.js';
import { auditRecords } from '../../platform/db/schema.js';
import { totpCode } from './totp.js';

let t: TestApp;
let client: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  client = new PanelClient(t);
});
afterAll(() => t?.close());

const STEP = 30_000;

/** Enrols and confirms a second factor through the routes; returns the secret and the recovery codes. */
async function turnOn(me: PanelSignIn) {
  const enrol = await client.post(me, '/panel/api/account/second-factor');
  expect(enrol.statusCode).toBe(200);
  const { secret, otpauthUri, qrSvg } = enrol.json().data;
  expect(otpauthUri).toContain(`secret=${secret}`);
  expect(qrSvg).toMatch(/^<svg/);
  const confirm = await client.post(me, '/panel/api/account/second-factor/confirm', { code: totpCode(secret, t.clock.now()) });
  expect(confirm.statusCode).toBe(200);
  return { secret: secret as string, recoveryCodes: confirm.json().data.recoveryCodes as string[] };
}

const signIn = (me: PanelSignIn, code?: string) => client.post(null, '/panel/api/session', { email: me.user.email, password: me.password, ...(code === undefined ? {} : { code }) });

describe('the TOTP second factor', () => {
  it('is confirmed with a code, seals its secret, and gives ten recovery codes kept only as hashes', async () => {
    const me = await signInPanelUser(t, { owner: true });
    const pending = await client.post(me, '/panel/api/account/second-factor');
    const wrong = await client.post(me, '/panel/api/account/second-factor/confirm', { code: '000000' === totpCode(pending.json().data.secret, t.clock.now()) ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details.fields).toEqual([expect.objectContaining({ path: 'code', code: 'invalid_value' })]);
    expect((await client.get(me, '/panel/api/session')).json().data.user.secondFactor).toBe(false);

    const { secret, recoveryCodes } = await turnOn(me);
    expect(recoveryCodes).toHaveLength(10);
    expect((await client.get(me, '/panel/api/session')).json().data.user.secondFactor).toBe(true);
    const { rows } = await t.ctx.db.execute(sql`SELECT u.totp_secret_sealed, array_agg(c.code_hash) AS hashes FROM users u JOIN user_recovery_codes c ON c.user_id = u.id WHERE u.id = ${me.user.id} GROUP BY u.id`);
    expect(Buffer.from(rows[0].totp_secret_sealed as Buffer).toString()).not.toContain(secret);
    expect(JSON.stringify(rows)).not.toContain(recoveryCodes[0]);
    expect((await client.post(me, '/panel/api/account/second-factor')).statusCode).toBe(400);
    const [record] = await t.ctx.db.select().from(auditRecords).where(and(eq(auditRecords.actorUserId, me.user.id), eq(auditRecords.action, 'account.second_factor_enabled')));
    expect(record).toBeDefined();
  });

  it('makes sign-in ask for the code (401 with details.secondFactor) and accepts each code once', async () => {
    const me = await signInPanelUser(t);
    const { secret } = await turnOn(me);
    t.clock.advance(STEP);

    const without = await signIn(me);
    expect(without.statusCode).toBe(401);
    expect(without.json().error).toMatchObject({ code: 'UNAUTHORIZED', details: { secondFactor: true } });
    expect(without.cookies.find((c) => c.name === 'quorum_session' && c.value)).toBeUndefined();
    const wrongPassword = await signIn({ ...me, password: 'wrong password!' }, totpCode(secret, t.clock.now()));
    expect(wrongPassword.json().error.details).toBeNull();

    const code = totpCode(secret, t.clock.now());
    expect((await signIn(me, code)).statusCode).toBe(200);
    const replay = await signIn(me, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.details).toEqual({ secondFactor: true });
    // nor an older code still inside the window
    expect((await signIn(me, totpCode(secret, new Date(t.clock.now().getTime() - STEP)))).statusCode).toBe(401);
    t.clock.advance(STEP);
    expect((await signIn(me, totpCode(secret, t.clock.now()))).statusCode).toBe(200);
  });

  it('takes a recovery code once in place of a code', async () => {
    const me = await signInPanelUser(t);
    const { recoveryCodes } = await turnOn(me);
    const typed = recoveryCodes[3].toLowerCase();
    expect((await signIn(me, typed)).statusCode).toBe(200);
    expect((await signIn(me, recoveryCodes[3])).statusCode).toBe(401);
    expect((await signIn(me, recoveryCodes[4])).statusCode).toBe(200);
  });

  it('turns off only with the password and a code, and sign-in no longer asks', async () => {
    const me = await signInPanelUser(t, { owner: true });
    const { secret } = await turnOn(me);
    t.clock.advance(STEP);
    const noPassword = await client.post(me, '/panel/api/account/second-factor/disable', { password: 'wrong password!', code: totpCode(secret, t.clock.now()) });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error.details.fields[0].path).toBe('password');
    const noCode = await client.post(me, '/panel/api/account/second-factor/disable', { password: me.password, code: '12345' });
    expect(noCode.json().error.details.fields[0].path).toBe('code');

    const off = await client.post(me, '/panel/api/account/second-factor/disable', { password: me.password, code: totpCode(secret, t.clock.now()) });
    expect(off.statusCode).toBe(200);
    expect((await signIn(me)).statusCode).toBe(200);
    const { rows } = await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM user_recovery_codes WHERE user_id = ${me.user.id}`);
    expect(rows[0].n).toBe(0);
    const [record] = await t.ctx.db.select().from(auditRecords).where(and(eq(auditRecords.actorUserId, me.user.id), eq(auditRecords.action, 'account.second_factor_disabled')));
    expect(record).toBeDefined();
  });

  it('an accepted invitation of an account with a second factor needs its code too', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const me = await signInPanelUser(t);
    const { secret } = await turnOn(me);
    t.clock.advance(STEP);
    await client.post(owner, '/panel/api/invitations', { email: me.user.email, permissions: ['forms'] });
    const { rows } = await t.ctx.db.execute<{ text_body: string }>(sql`SELECT text_body FROM dev_mail WHERE recipient = ${me.user.email} ORDER BY created_at DESC LIMIT 1`);
    const token = /accept#token=([A-Za-z0-9_-]{43})/.exec(rows[0].text_body)![1];
    const without = await client.post(null, '/panel/api/invitations/accept', { token, name: 'x', password: me.password });
    expect(without.statusCode).toBe(401);
    expect(without.json().error.details).toEqual({ secondFactor: true });
    const res = await client.post(null, '/panel/api/invitations/accept', { token, name: 'x', password: me.password, code: totpCode(secret, t.clock.now()) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.company.id).toBe(owner.companyId);
  });
});
