import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { registerSchool, rosterPayload } from '../../../test/rosters.js';
import { claimIdempotencyKey, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from '../../features/idempotency/index.js';
import { pruneIdempotencyKeys } from '../../features/idempotency/prune-idempotency-keys.job.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const withKey = (key: string) => ({ 'idempotency-key': key });

async function setup() {
  const tenant = await t.tenant();
  const survey = await createSurvey(t, tenant.company.id);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const create = async (email: string) => (await t.post(tenant.token, base, { email })).json().data.id as string;
  return { ...tenant, survey, base, create };
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const { rows } = await t.ctx.db.execute<{ n: number }>(query);
  return Number(rows[0].n);
}

const messagesOf = (companyId: string) => count(sql`SELECT count(*) AS n FROM invite_messages WHERE company_id = ${companyId}`);
const eventsOf = (companyId: string) => count(sql`SELECT count(*) AS n FROM events WHERE company_id = ${companyId}`);
const reservedOf = (companyId: string) => count(sql`SELECT coalesce(sum(reserved + used), 0) AS n FROM quota_usage WHERE company_id = ${companyId}`);

describe('Idempotency-Key on /v1 POSTs', () => {
  it('20 concurrent identical sends with one key make one send: one message per invite, one quota unit each', async () => {
    const s = await setup();
    const invites = [await s.create('a@school.edu'), await s.create('b@school.edu'), await s.create('c@school.edu')];
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.post(s.token, `${s.base}/send`, { channel: 'email' }, withKey(key))));

    const ran = answers.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
    const replayed = answers.filter((r) => r.headers['idempotent-replayed'] === 'true');
    const inProgress = answers.filter((r) => r.statusCode === 409);
    expect(ran).toHaveLength(1);
    expect(ran.length + replayed.length + inProgress.length).toBe(20);
    for (const r of inProgress) expect(r.json().error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    for (const r of replayed) expect(r.body).toBe(ran[0].body);
    expect(ran[0].json().data.queued).toBe(3);

    expect(await messagesOf(s.company.id)).toBe(3);
    const perInvite = await t.ctx.db.execute<{ invite_id: string; n: number }>(
      sql`SELECT invite_id, count(*) AS n FROM invite_messages WHERE company_id = ${s.company.id} GROUP BY invite_id`,
    );
    expect(perInvite.rows.map((r) => [r.invite_id, Number(r.n)]).sort()).toEqual(invites.map((id) => [id, 1]).sort());
    expect(await reservedOf(s.company.id)).toBe(3);

    // Once the first has answered, every repeat is its stored answer, byte for byte.
    const again = await t.post(s.token, `${s.base}/send`, { channel: 'email' }, withKey(key));
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(ran[0].body);
    expect(await messagesOf(s.company.id)).toBe(3);
    expect(await reservedOf(s.company.id)).toBe(3);
  });

  it('without a key a send is a send: a repeat queues the reminders again', async () => {
    const s = await setup();
    await s.create('a@school.edu');
    expect((await t.post(s.token, `${s.base}/send`, { channel: 'email' })).statusCode).toBe(200);
    const second = await t.post(s.token, `${s.base}/send`, { channel: 'email' });
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await messagesOf(s.company.id)).toBe(2);
    expect(await reservedOf(s.company.id)).toBe(2);
  });

  it('replays a create (201) and a revoke byte for byte, creating and emitting nothing more', async () => {
    const s = await setup();
    const first = await t.post(s.token, s.base, { email: 'x@school.edu', name: 'X' }, withKey('create-1'));
    expect(first.statusCode).toBe(201);
    const replay = await t.post(s.token, s.base, { name: 'X', email: 'x@school.edu' }, withKey('create-1'));
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['content-type']).toBe(first.headers['content-type']);
    expect(replay.body).toBe(first.body);
    expect(await count(sql`SELECT count(*) AS n FROM invites WHERE company_id = ${s.company.id}`)).toBe(1);

    const id = first.json().data.id;
    const revoked = await t.post(s.token, `/v1/invites/${id}/revoke`, undefined, withKey('revoke-1'));
    expect(revoked.statusCode).toBe(200);
    const events = await eventsOf(s.company.id);
    const again = await t.post(s.token, `/v1/invites/${id}/revoke`, undefined, withKey('revoke-1'));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(revoked.body);
    expect(await eventsOf(s.company.id)).toBe(events);
  });

  it('keeps concurrent keys apart: 30 creates with 30 keys at once, each repeat gets its own answer', async () => {
    const s = await setup();
    const emails = Array.from({ length: 30 }, (_, i) => `c${i}@school.edu`);
    const firsts = await Promise.all(emails.map((email, i) => t.post(s.token, s.base, { email }, withKey(`many-${i}`))));
    expect(firsts.map((r) => r.statusCode)).toEqual(emails.map(() => 201));
    const repeats = await Promise.all(emails.map((email, i) => t.post(s.token, s.base, { email }, withKey(`many-${i}`))));
    for (const [i, r] of repeats.entries()) {
      expect(r.headers['idempotent-replayed']).toBe('true');
      expect(r.body).toBe(firsts[i].body);
      expect(r.json().data.email).toBe(emails[i]);
    }
    expect(await count(sql`SELECT count(*) AS n FROM invites WHERE company_id = ${s.company.id}`)).toBe(30);
  });

  it('replays a roster import without applying it again', async () => {
    const s = await setup();
    await registerSchool(t, s.company.id);
    const payload = rosterPayload(2, 3);
    const first = await t.post(s.token, '/v1/enrollments/import', payload, withKey('import-1'));
    expect(first.statusCode).toBe(200);
    expect(first.json().data.created.enrollments).toBe(6);
    const replay = await t.post(s.token, '/v1/enrollments/import', payload, withKey('import-1'));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    // Without the key the same import runs, and finds nothing to change.
    const rerun = await t.post(s.token, '/v1/enrollments/import', payload);
    expect(rerun.json().data.unchanged.enrollments).toBe(6);
  });

  it('stores a refusal of the request (409 DUPLICATE_INVITE) and replays it; a refused body (400) is not stored', async () => {
    const s = await setup();
    await s.create('dup@school.edu');
    const dup = await t.post(s.token, s.base, { email: 'dup@school.edu' }, withKey('dup-1'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('DUPLICATE_INVITE');
    const dupAgain = await t.post(s.token, s.base, { email: 'dup@school.edu' }, withKey('dup-1'));
    expect(dupAgain.headers['idempotent-replayed']).toBe('true');
    expect(dupAgain.body).toBe(dup.body);

    const bad = await t.post(s.token, s.base, { email: 'fixed@school.edu', expiresAt: 'tomorrow' }, withKey('fix-1'));
    expect(bad.statusCode).toBe(400);
    const fixed = await t.post(s.token, s.base, { email: 'fixed@school.edu' }, withKey('fix-1'));
    expect(fixed.statusCode).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a key reused with another body or on another route: 422 IDEMPOTENCY_KEY_REUSED, nothing done', async () => {
    const s = await setup();
    const id = await s.create('a@school.edu');
    await s.create('b@school.edu');
    expect((await t.post(s.token, `${s.base}/send`, { channel: 'email', inviteIds: [id] }, withKey('k'))).statusCode).toBe(200);
    const otherBody = await t.post(s.token, `${s.base}/send`, { channel: 'email' }, withKey('k'));
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherRoute = await t.post(s.token, `/v1/invites/${id}/revoke`, undefined, withKey('k'));
    expect(otherRoute.statusCode).toBe(422);
    expect(await messagesOf(s.company.id)).toBe(1);
    expect((await t.get(s.token, `${s.base}?status=revoked`)).json().data).toHaveLength(0);
  });

  it('keeps keys per API key: the same key from another key of the company is another request', async () => {
    const s = await setup();
    await s.create('a@school.edu');
    const other = await t.key(s.company.id);
    expect((await t.post(s.token, `${s.base}/send`, { channel: 'email' }, withKey('shared'))).statusCode).toBe(200);
    const second = await t.post(other.token, `${s.base}/send`, { channel: 'email' }, withKey('shared'));
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await messagesOf(s.company.id)).toBe(2);
  });

  it('bounds the key: 1–255 printable ASCII characters, else 400 VALIDATION_ERROR on the header', async () => {
    const s = await setup();
    for (const key of ['', 'x'.repeat(256), 'tab\there']) {
      const res = await t.post(s.token, s.base, { email: 'bounds@school.edu' }, withKey(key));
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json().error.details.fields[0].path).toMatch(/idempotency-key/);
    }
    const longest = await t.post(s.token, s.base, { email: 'bounds@school.edu' }, withKey('~'.repeat(255)));
    expect(longest.statusCode).toBe(201);
  });

  it('answers 409 IDEMPOTENCY_IN_PROGRESS while the first holds the key, and runs again once its claim has lapsed', async () => {
    const s = await setup();
    await s.create('a@school.edu');
    const body = { channel: 'email' };
    // The first request's claim, as a process that died before answering left it.
    const first = await t.post(s.token, `${s.base}/send`, body, withKey('lease'));
    await t.ctx.db.execute(sql`UPDATE idempotency_keys SET status_code = NULL, body = NULL, content_type = NULL WHERE idem_key = 'lease'`);
    expect(first.statusCode).toBe(200);
    const busy = await t.post(s.token, `${s.base}/send`, body, withKey('lease'));
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    t.clock.advance(IDEMPOTENCY_LEASE_MS);
    const rerun = await t.post(s.token, `${s.base}/send`, body, withKey('lease'));
    expect(rerun.statusCode).toBe(200);
    expect(rerun.headers['idempotent-replayed']).toBeUndefined();
    expect(await messagesOf(s.company.id)).toBe(2);
  });

  it('keeps answers 24 hours: the prune sweep removes them and the key is then new', async () => {
    const s = await setup();
    await s.create('a@school.edu');
    t.clock.set('2026-03-05T09:00:00.000Z');
    expect((await t.post(s.token, `${s.base}/send`, { channel: 'email' }, withKey('day'))).statusCode).toBe(200);
    const stored = () => count(sql`SELECT count(*) AS n FROM idempotency_keys WHERE company_id = ${s.company.id}`);
    t.clock.advance(IDEMPOTENCY_TTL_MS - 1);
    await pruneIdempotencyKeys.sweep(t.ctx);
    expect(await stored()).toBe(1);
    expect((await t.post(s.token, `${s.base}/send`, { channel: 'email' }, withKey('day'))).headers['idempotent-replayed']).toBe('true');
    t.clock.advance(1);
    expect(await pruneIdempotencyKeys.sweep(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await stored()).toBe(0);
    const after = await t.post(s.token, `${s.base}/send`, { channel: 'email' }, withKey('day'));
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(await messagesOf(s.company.id)).toBe(2);
  });

  it('claims through the database: a second claim of a running key is refused whatever the process', async () => {
    const s = await setup();
    const ref = { companyId: s.company.id, apiKeyId: s.keyId, key: 'direct', fingerprint: Buffer.alloc(32, 1) };
    expect(await claimIdempotencyKey(t.ctx.db, t.ctx, ref)).toEqual({ kind: 'claimed' });
    await expect(claimIdempotencyKey(t.ctx.db, t.ctx, ref)).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    await expect(claimIdempotencyKey(t.ctx.db, t.ctx, { ...ref, fingerprint: Buffer.alloc(32, 2) })).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('publishes the header on every POST, the codes and the replay header, and on no GET', async () => {
    const doc = (await t.get(null, '/v1/openapi.json')).json();
    // The respondent API (/r/v1, its own servers) is not under /v1.
    const operations = Object.values(doc.paths as Record<string, Record<string, any>>)
      .flatMap((item) => Object.entries(item))
      .filter(([, op]) => !op.servers);
    const posts = operations.filter(([method]) => method === 'post');
    expect(posts.length).toBeGreaterThanOrEqual(4);
    for (const [, op] of posts) {
      expect(op.parameters.some((p: any) => p.in === 'header' && p.name === 'idempotency-key' && p.schema.maxLength === 255)).toBe(true);
      expect(op.responses['422'].description).toContain('IDEMPOTENCY_KEY_REUSED');
      expect(op.responses['409'].description).toContain('IDEMPOTENCY_IN_PROGRESS');
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))![1] as any;
      expect(success.headers['idempotent-replayed']).toBeDefined();
    }
    for (const [, op] of operations.filter(([method]) => method === 'get')) {
      expect((op.parameters ?? []).some((p: any) => p.name === 'idempotency-key')).toBe(false);
    }
  });
});
