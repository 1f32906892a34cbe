import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { expireInvites } from './expire-invites.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('stores passed expiries by the clock: status expired, invite.expired once, queued messages cancelled with units returned', async () => {
  const { company, token } = await t.tenant();
  const survey = await createSurvey(t, company.id);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const soon = (await t.post(token, base, { email: 'soon@school.edu', expiresAt: '2026-03-02T10:00:00.000Z' })).json().data;
  const later = (await t.post(token, base, { email: 'later@school.edu', expiresAt: '2026-03-09T10:00:00.000Z' })).json().data;
  const revoked = (await t.post(token, base, { email: 'gone@school.edu', expiresAt: '2026-03-02T10:00:00.000Z' })).json().data;
  await t.post(token, `/v1/invites/${revoked.id}/revoke`);
  const sent = (await t.post(token, `${base}/send`, { channel: 'email', scheduleAt: '2026-03-02T11:00:00.000Z' })).json().data;

  expect(await expireInvites(t.ctx.db, t.ctx)).toBe(0);
  t.clock.set('2026-03-02T10:00:00.000Z');
  expect(await expireInvites(t.ctx.db, t.ctx)).toBe(1);
  expect(await expireInvites(t.ctx.db, t.ctx)).toBe(0);

  const list = (await t.get(token, base)).json().data;
  const byId = Object.fromEntries(list.map((i: any) => [i.id, [i.status, i.effectiveStatus]]));
  expect(byId).toEqual({ [soon.id]: ['expired', 'expired'], [later.id]: ['queued', 'queued'], [revoked.id]: ['revoked', 'revoked'] });
  const { rows: events } = await t.ctx.db.execute<{ data: any }>(sql`SELECT data FROM events WHERE company_id = ${company.id} AND type = 'invite.expired'`);
  expect(events).toEqual([{ data: expect.objectContaining({ inviteId: soon.id, status: 'expired', channel: 'email', batchId: null, sendBatchId: sent.batchId, failReason: null }) }]);
  const { rows: messages } = await t.ctx.db.execute<{ invite_id: string; status: string }>(sql`SELECT invite_id, status FROM invite_messages WHERE company_id = ${company.id}`);
  expect(Object.fromEntries(messages.map((m) => [m.invite_id, m.status]))).toEqual({ [soon.id]: 'cancelled', [later.id]: 'pending' });
  const { rows: quota } = await t.ctx.db.execute(sql`SELECT used, reserved FROM quota_usage WHERE company_id = ${company.id}`);
  expect(quota).toEqual([{ used: 0, reserved: 1 }]);
});
