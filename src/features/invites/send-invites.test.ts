import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { updateCompanySettings } from '../companies/company-settings.js';
import { suppress } from '../suppression/suppressions.js';
import { setWhatsappChannel } from '../messaging/set-whatsapp-channel.js';
import { INVITE_STATUS } from './invite-view.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function setup() {
  const tenant = await t.tenant();
  const survey = await createSurvey(t, tenant.company.id);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const create = async (body: object) => (await t.post(tenant.token, base, body)).json().data.id as string;
  const send = (body: object) => t.post(tenant.token, `${base}/send`, body);
  return { ...tenant, survey, base, create, send };
}

async function quota(companyId: string) {
  const { rows } = await t.ctx.db.execute<{ used: number; reserved: number }>(sql`SELECT used, reserved FROM quota_usage WHERE company_id = ${companyId}`);
  return rows[0] ?? { used: 0, reserved: 0 };
}

/** The stored status of each invite (a created or failed invite with a pending message is queued). */
async function statuses(ids: string[]) {
  const { rows } = await t.ctx.db.execute<{ id: string; status: string }>(
    sql`SELECT i.id, ${INVITE_STATUS} AS status FROM invites i WHERE i.id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
}

async function messages(companyId: string) {
  const { rows } = await t.ctx.db.execute<{ invite_id: string; batch_id: string; status: string; due_at: Date | string; channel: string }>(
    sql`SELECT invite_id, batch_id, status, due_at, channel FROM invite_messages WHERE company_id = ${companyId}`,
  );
  return rows;
}

/** Inserts n e-mail invites set-wise (tests of volume need no HTTP per invite). */
async function bulkInvites(companyId: string, formId: string, n: number): Promise<string[]> {
  const { rows } = await t.ctx.db.execute<{ id: string }>(sql`
    INSERT INTO invites (id, company_id, form_id, token, email, status_changed_at, created_at)
    SELECT uuidv7_at(${t.clock.now()}), ${companyId}, ${formId}, md5(random()::text) || md5(g::text), 'bulk' || g || '@school.edu', ${t.clock.now()}, ${t.clock.now()}
      FROM generate_series(1, ${n}) g RETURNING id`);
  return rows.map((r) => r.id);
}

describe('POST /v1/forms/{id}/invites/send', () => {
  it('queues eligible invites by e-mail, skips each ineligible one with its reason, reserves one unit per message', async () => {
    const s = await setup();
    const ok1 = await s.create({ email: 'ok1@school.edu' });
    const ok2 = await s.create({ email: 'ok2@school.edu', expiresAt: '2026-03-02T10:00:00.000Z' });
    const phoneOnly = await s.create({ phone: '+5511987654321' });
    const revoked = await s.create({ email: 'revoked@school.edu' });
    await t.post(s.token, `/v1/invites/${revoked}/revoke`);
    const responded = await s.create({ email: 'responded@school.edu' });
    await t.ctx.db.execute(sql`UPDATE invites SET status = 'responded' WHERE id = ${responded}`);
    const expired = await s.create({ email: 'expired@school.edu', expiresAt: '2026-03-02T09:30:00.000Z' });
    const suppressed = await s.create({ email: 'bounced@school.edu' });
    await suppress(t.ctx.db, t.ctx, { companyId: s.company.id, addresses: ['bounced@school.edu'], reason: 'bounced' });
    t.clock.set('2026-03-02T09:45:00.000Z');

    const res = await s.send({ channel: 'email' });
    expect(res.statusCode).toBe(200);
    const result = res.json().data;
    expect(result.queued).toBe(2);
    expect(result.skipped).toHaveLength(5);
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        { id: phoneOnly, reason: 'no_email' },
        { id: revoked, reason: 'revoked' },
        { id: responded, reason: 'responded' },
        { id: expired, reason: 'expired' },
        { id: suppressed, reason: 'suppressed' },
      ]),
    );
    expect(await statuses([ok1, ok2, phoneOnly])).toEqual({ [ok1]: 'queued', [ok2]: 'queued', [phoneOnly]: 'created' });
    const listed = async (status: string) => (await t.get(s.token, `${s.base}?status=${status}`)).json().data.map((i: { id: string; status: string }) => [i.id, i.status]);
    expect((await listed('queued')).sort()).toEqual([[ok1, 'queued'], [ok2, 'queued']].sort());
    expect((await listed('created')).sort()).toEqual([[phoneOnly, 'created'], [expired, 'created'], [suppressed, 'created']].sort());
    const queued = await messages(s.company.id);
    expect(queued.map((m) => m.invite_id).sort()).toEqual([ok1, ok2].sort());
    expect(queued.every((m) => m.batch_id === result.batchId && m.status === 'pending' && m.channel === 'email')).toBe(true);
    expect(await quota(s.company.id)).toEqual({ used: 0, reserved: 2 });
    t.clock.set('2026-03-02T09:00:00.000Z');
  });

  it('selects by inviteIds, by an earlier batchId, and by filter.statuses', async () => {
    const s = await setup();
    const [a, b, c] = [await s.create({ email: 'a@school.edu' }), await s.create({ email: 'b@school.edu' }), await s.create({ email: 'c@school.edu' })];
    const first = (await s.send({ channel: 'email', inviteIds: [a, b] })).json().data;
    expect(first.queued).toBe(2);
    const again = (await s.send({ channel: 'email', batchId: first.batchId })).json().data;
    expect(again.queued).toBe(2);
    const byStatus = (await s.send({ channel: 'email', filter: { statuses: ['created'] } })).json().data;
    expect(byStatus.queued).toBe(1);
    expect((await messages(s.company.id)).filter((m) => m.batch_id === byStatus.batchId).map((m) => m.invite_id)).toEqual([c]);
    expect(await quota(s.company.id)).toEqual({ used: 0, reserved: 5 });
  });

  it('queues a failed invite again; its pending message, not a rewrite of the invite, makes it queued', async () => {
    const s = await setup();
    const [failed, sent] = [await s.create({ email: 'failed@school.edu' }), await s.create({ email: 'sent@school.edu' })];
    await t.ctx.db.execute(sql`UPDATE invites SET status = 'failed' WHERE id = ${failed}`);
    await t.ctx.db.execute(sql`UPDATE invites SET status = 'sent' WHERE id = ${sent}`);
    const res = (await s.send({ channel: 'email', filter: { statuses: ['failed', 'sent'] } })).json().data;
    expect(res).toMatchObject({ queued: 2, skipped: [] });
    // failed moves to queued; the main line never moves back, so sent stays sent.
    expect(await statuses([failed, sent])).toEqual({ [failed]: 'queued', [sent]: 'sent' });
    expect((await s.send({ channel: 'email', filter: { statuses: ['queued'] } })).json().data.queued).toBe(1);
    const { rows } = await t.ctx.db.execute<{ status: string; channel: string | null; send_batch_id: string | null }>(
      sql`SELECT status, channel, send_batch_id FROM invites WHERE id = ${failed}`,
    );
    expect(rows).toEqual([{ status: 'failed', channel: null, send_batch_id: null }]);
    // Its pending messages cancelled (as revoke and expiry do), the invite is failed again.
    await t.ctx.db.execute(sql`UPDATE invite_messages SET status = 'cancelled' WHERE invite_id = ${failed}`);
    expect(await statuses([failed])).toEqual({ [failed]: 'failed' });
    // A row stored as queued by an earlier version stays queued, in the list's filter too.
    const legacy = await s.create({ email: 'legacy@school.edu' });
    await t.ctx.db.execute(sql`UPDATE invites SET status = 'queued' WHERE id = ${legacy}`);
    expect((await t.get(s.token, `${s.base}?status=queued`)).json().data.map((i: { id: string }) => i.id)).toEqual([legacy]);
  });

  it('holds a future scheduleAt as the due time and ignores a past one', async () => {
    const s = await setup();
    await s.create({ email: 'sched@school.edu' });
    await s.send({ channel: 'email', scheduleAt: '2026-03-05T08:00:00.000Z' });
    await s.send({ channel: 'email', scheduleAt: '2020-01-01T00:00:00.000Z' });
    const due = (await messages(s.company.id)).map((m) => new Date(m.due_at).toISOString()).sort();
    expect(due).toEqual(['2026-03-02T09:00:00.000Z', '2026-03-05T08:00:00.000Z']);
  });

  it('answers 403 QUOTA_EXCEEDED with the consumption and queues nothing when the send does not fit', async () => {
    const s = await setup();
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: s.company.id, patch: { monthlyQuota: 3 } });
    const ids = await bulkInvites(s.company.id, s.survey.form.id, 5);
    const res = await s.send({ channel: 'email' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { limit: 3, used: 0, reserved: 0, requested: 5, period: '2026-03' } });
    expect(await messages(s.company.id)).toEqual([]);
    expect(Object.values(await statuses(ids))).toEqual(Array(5).fill('created'));
    expect((await s.send({ channel: 'email', inviteIds: ids.slice(0, 3) })).json().data.queued).toBe(3);
  });

  it('never over-reserves: 20 concurrent sends racing for the last 100 units', async () => {
    const s = await setup();
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: s.company.id, patch: { monthlyQuota: 1000 } });
    await t.ctx.db.execute(sql`INSERT INTO quota_usage (company_id, period, used, reserved) VALUES (${s.company.id}, '2026-03', 900, 0)`);
    const ids = await bulkInvites(s.company.id, s.survey.form.id, 300);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => s.send({ channel: 'email', inviteIds: ids.slice(i * 15, i * 15 + 15) })));
    const accepted = results.filter((r) => r.statusCode === 200);
    expect(results.every((r) => r.statusCode === 200 || r.json().error.code === 'QUOTA_EXCEEDED')).toBe(true);
    expect(accepted).toHaveLength(6);
    const q = await quota(s.company.id);
    expect(q.used + q.reserved).toBeLessThanOrEqual(1000);
    expect(q.reserved).toBe(90);
    expect(await messages(s.company.id)).toHaveLength(90);
  });

  it('revoking an invite of a scheduled send cancels its message and returns the unit', async () => {
    const s = await setup();
    const keep = await s.create({ email: 'keep@school.edu' });
    const drop = await s.create({ email: 'drop@school.edu' });
    await s.send({ channel: 'email', scheduleAt: '2026-03-03T09:00:00.000Z' });
    expect(await quota(s.company.id)).toEqual({ used: 0, reserved: 2 });
    await t.post(s.token, `/v1/invites/${drop}/revoke`);
    expect(await quota(s.company.id)).toEqual({ used: 0, reserved: 1 });
    const byInvite = Object.fromEntries((await messages(s.company.id)).map((m) => [m.invite_id, m.status]));
    expect(byInvite).toEqual({ [keep]: 'pending', [drop]: 'cancelled' });
  });

  it('WhatsApp: 403 CHANNEL_NOT_CONFIGURED, 400 TEMPLATE_REQUIRED on the cloud API, no_phone and missing_var skips', async () => {
    const s = await setup();
    const named = await s.create({ phone: '+5511987654321', name: 'Ana' });
    const unnamed = await s.create({ phone: '+5511987654322' });
    const emailOnly = await s.create({ email: 'mail@school.edu' });
    expect((await s.send({ channel: 'whatsapp' })).json().error.code).toBe('CHANNEL_NOT_CONFIGURED');
    expect((await s.send({ channel: 'whatsapp' })).statusCode).toBe(403);

    await setWhatsappChannel(t.ctx.db, t.ctx, {
      companyId: s.company.id,
      provider: 'cloud-api',
      token: 'graph-token',
      settings: { phoneNumberId: '1234567890', templates: ['survey_invite'] },
    });
    const none = await s.send({ channel: 'whatsapp' });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.code).toBe('TEMPLATE_REQUIRED');
    expect((await s.send({ channel: 'whatsapp', template: { name: 'not_approved', language: 'pt_BR' } })).json().error.code).toBe('TEMPLATE_REQUIRED');
    const unknownVar = await s.send({ channel: 'whatsapp', template: { name: 'survey_invite', language: 'pt_BR', variables: { '1': '{{password}}' } } });
    expect(unknownVar.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ code: 'unknown_reference' })] } });

    const res = await s.send({ channel: 'whatsapp', template: { name: 'survey_invite', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{url}}' } } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.queued).toBe(1);
    expect(res.json().data.skipped).toEqual(expect.arrayContaining([{ id: unnamed, reason: 'missing_var' }, { id: emailOnly, reason: 'no_phone' }]));
    expect((await messages(s.company.id)).map((m) => m.invite_id)).toEqual([named]);
  });

  it('refuses bad selections with VALIDATION_ERROR', async () => {
    const s = await setup();
    const tooMany = Array.from({ length: 1001 }, () => '00000000-0000-7000-8000-000000000000');
    expect((await s.send({ channel: 'email', inviteIds: tooMany })).json().error.code).toBe('VALIDATION_ERROR');
    const badId = await s.send({ channel: 'email', inviteIds: ['nope'] });
    expect(badId.json().error.details.fields).toContainEqual(expect.objectContaining({ path: 'inviteIds.0' }));
    expect((await s.send({ channel: 'sms' })).json().error.code).toBe('VALIDATION_ERROR');
    expect((await s.send({ channel: 'email', filter: { statuses: ['lost'] } })).json().error.code).toBe('VALIDATION_ERROR');
  });
});

describe('the send batch of a message (checked per statement, migration 0452)', () => {
  it('refuses a message naming no batch of its company, never moves a message to another batch, and deletes the messages of a deleted batch', async () => {
    const s = await setup();
    const other = await setup();
    const id = await s.create({ email: 'batch@school.edu' });
    const sent = (await s.send({ channel: 'email', inviteIds: [id] })).json().data;
    const otherBatch = (await other.send({ channel: 'email', inviteIds: [await other.create({ email: 'o@school.edu' })] })).json().data.batchId;
    const insert = (batchId: string) =>
      t.ctx.db.execute(sql`INSERT INTO invite_messages (id, company_id, invite_id, batch_id, channel, due_at, quota_period, created_at)
        VALUES (gen_random_uuid(), ${s.company.id}, ${id}, ${batchId}, 'email', now(), '2026-03', now())`);
    const violation = { cause: expect.objectContaining({ code: '23503', constraint: 'invite_messages_batch_exists' }) };
    await expect(insert('00000000-0000-7000-8000-000000000000')).rejects.toMatchObject(violation);
    await expect(insert(otherBatch)).rejects.toMatchObject(violation); // another company's batch
    await expect(t.ctx.db.execute(sql`UPDATE invite_messages SET batch_id = ${otherBatch} WHERE company_id = ${s.company.id}`)).rejects.toMatchObject(violation);
    expect(await messages(s.company.id)).toEqual([expect.objectContaining({ invite_id: id, batch_id: sent.batchId })]);

    await t.ctx.db.execute(sql`DELETE FROM invite_batches WHERE company_id = ${s.company.id} AND id = ${sent.batchId}`);
    expect(await messages(s.company.id)).toEqual([]);
    expect(await messages(other.company.id)).toHaveLength(1);
  });
});

describe('POST /v1/forms/{id}/invites/send with dryRun (extension)', () => {
  /** Every row a send may write or move, of one company. */
  async function footprint(companyId: string) {
    const { rows } = await t.ctx.db.execute(sql`SELECT
      (SELECT count(*)::int FROM invite_batches WHERE company_id = ${companyId}) AS batches,
      (SELECT count(*)::int FROM invite_messages WHERE company_id = ${companyId}) AS messages,
      (SELECT count(*)::int FROM events WHERE company_id = ${companyId}) AS events,
      (SELECT coalesce(json_agg(q ORDER BY period), '[]') FROM quota_usage q WHERE company_id = ${companyId}) AS quota,
      (SELECT json_agg(json_build_object('id', id, 'status', status, 'at', status_changed_at) ORDER BY id) FROM invites WHERE company_id = ${companyId}) AS invites`);
    return rows[0];
  }

  it('answers what the send would queue and skip and the quota it needs, and changes nothing', async () => {
    const s = await setup();
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: s.company.id, patch: { monthlyQuota: 10 } });
    await t.ctx.db.execute(sql`INSERT INTO quota_usage (company_id, period, used, reserved) VALUES (${s.company.id}, '2026-03', 4, 1)`);
    const ok1 = await s.create({ email: 'ok1@school.edu' });
    const ok2 = await s.create({ email: 'ok2@school.edu' });
    const phoneOnly = await s.create({ phone: '+5511987654321' });
    const revoked = await s.create({ email: 'revoked@school.edu' });
    await t.post(s.token, `/v1/invites/${revoked}/revoke`);
    const before = await footprint(s.company.id);

    const res = await s.send({ channel: 'email', dryRun: true });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toEqual({
      dryRun: true,
      queued: 2,
      skipped: expect.arrayContaining([{ id: phoneOnly, reason: 'no_email' }, { id: revoked, reason: 'revoked' }]),
      quota: { limit: 10, used: 4, reserved: 1, left: 5, requested: 2, fits: true, period: '2026-03' },
    });
    expect(data.skipped).toHaveLength(2);
    expect(await footprint(s.company.id)).toEqual(before);
    expect(Object.values(await statuses([ok1, ok2]))).toEqual(['created', 'created']);

    // The real send then does what the dry run said.
    const sent = (await s.send({ channel: 'email' })).json().data;
    expect(sent.queued).toBe(2);
    expect(await quota(s.company.id)).toEqual({ used: 4, reserved: 3 });
  });

  it('says when the send would not fit the quota (the send itself answers 403), still writing nothing', async () => {
    const s = await setup();
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: s.company.id, patch: { monthlyQuota: 3 } });
    const ids = await bulkInvites(s.company.id, s.survey.form.id, 5);
    const before = await footprint(s.company.id);
    const res = await s.send({ channel: 'email', inviteIds: ids, dryRun: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.quota).toEqual({ limit: 3, used: 0, reserved: 0, left: 3, requested: 5, fits: false, period: '2026-03' });
    expect(await footprint(s.company.id)).toEqual(before);
    expect((await s.send({ channel: 'email', inviteIds: ids })).json().error.code).toBe('QUOTA_EXCEEDED');
  });

  it('refuses what the send refuses: a template variable that does not exist, a channel not configured', async () => {
    const s = await setup();
    const res = await s.send({ channel: 'whatsapp', dryRun: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('CHANNEL_NOT_CONFIGURED');
    const bad = await s.send({ channel: 'email', dryRun: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
  });
});
