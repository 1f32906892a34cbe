import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { SmtpSink } from '../../../test/smtp-sink.js';
import { respondentClient } from '../../../test/respondent.js';
import { createSurvey } from '../../../test/responses.js';
import { startOutboundLoop, type OutboundLoop } from '../../platform/outbound/loop.js';
import { suppress } from '../suppression/suppressions.js';
import { emailKind } from './email-kind.js';
import { MESSAGES_CHANNEL } from '../message-channels/index.js';
import { sleeperName } from '../../platform/outbound/wake-sleepers.js';
import { smtpMailer } from './smtp-mailer.js';
import { listDevMail } from './dev-mailbox.js';

let t: TestApp;
let sink: SmtpSink;
let loop: OutboundLoop | null = null;
beforeAll(async () => {
  t = await startTestApp();
  sink = new SmtpSink();
  await sink.start();
});
afterEach(async () => {
  await loop?.stop();
  loop = null;
  sink.received.length = 0;
  sink.refused.length = 0;
  sink.refuse = [];
});
afterAll(async () => {
  await sink.close();
  await t.close();
});

async function startLoop(mailer = smtpMailer(sink.url, { maxConnections: 2, timeoutMs: 5000 })) {
  loop = await startOutboundLoop(t.ctx, emailKind(t.ctx, mailer), { listen: false, pollIntervalMs: null });
  return loop;
}

async function setup(inviteBody: object = { email: 'ana@school.edu', name: 'Ana <b>' }) {
  const tenant = await t.tenant();
  const survey = await createSurvey(t, tenant.company.id);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const invite = (await t.post(tenant.token, base, inviteBody)).json().data;
  const send = (body: object = {}) => t.post(tenant.token, `${base}/send`, { channel: 'email', ...body });
  return { ...tenant, survey, invite, send };
}

/** Loops of this database showing themselves asleep on the messages channel (see wakeSleepers). */
async function sleepers(): Promise<number> {
  const { rows } = await t.ctx.db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${sleeperName(MESSAGES_CHANNEL)}`);
  return rows[0].n;
}

async function state(companyId: string, inviteId: string) {
  const q = await t.ctx.db.execute<{ used: number; reserved: number }>(sql`SELECT used, reserved FROM quota_usage WHERE company_id = ${companyId}`);
  const i = await t.ctx.db.execute<{ status: string }>(sql`SELECT status FROM invites WHERE id = ${inviteId}`);
  const e = await t.ctx.db.execute<{ type: string; data: any }>(sql`SELECT type, data FROM events WHERE company_id = ${companyId} AND type IN ('invite.sent', 'invite.failed') ORDER BY occurred_at, id`);
  const m = await t.ctx.db.execute<{ status: string; attempts: number }>(sql`SELECT status, attempts FROM invite_messages WHERE invite_id = ${inviteId}`);
  return { quota: q.rows[0], status: i.rows[0].status, events: e.rows, messages: m.rows };
}

describe('e-mail through the outbound loop', () => {
  it('delivers over SMTP: both parts, the personal link, one-click unsubscribe headers, the sender; invite.sent; unit consumed', async () => {
    const s = await setup();
    const { batchId } = (await s.send()).json().data;
    await (await startLoop()).drain();
    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0];
    expect(mail.to).toMatchObject({ text: 'ana@school.edu' });
    // The company is the sender (no mailFrom of its own: its name on the deployment's address).
    expect(mail.from?.text).toBe(t.ctx.config.mailFrom.replace(/^(.*) </, `"${s.company.name}" <`));
    expect(mail.subject).toBe(`${s.company.name} asks for your answer: ${s.survey.form.name}`);
    expect(mail.text).toContain(s.invite.url);
    expect(mail.text).toContain('Hello Ana <b>,');
    expect(mail.html).toContain(`href="${s.invite.url}"`);
    expect(mail.html).toContain('Hello Ana &lt;b&gt;');
    expect(mail.html).not.toContain('Ana <b>');
    const unsubscribe = new URL(`/u/${s.invite.token}`, t.ctx.config.publicFormUrl).toString();
    // Unfolded (RFC 5322 folding puts long values on continuation lines).
    const header = (key: string) => mail.headerLines.find((line) => line.key === key)?.line.replace(/\r\n\s+/g, ' ');
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${unsubscribe}>`);
    // Postmark returns it as Metadata in its webhooks: the callback finds the message by it (the
    // key compared without case: nodemailer sends the name as X-Pm-Metadata-Quorum-Message-ID).
    const { rows: message } = await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM invite_messages WHERE invite_id = ${s.invite.id}`);
    expect(header('x-pm-metadata-quorum-message-id')?.toLowerCase()).toBe(`x-pm-metadata-quorum-message-id: ${message[0].id}`);
    const after = await state(s.company.id, s.invite.id);
    expect(after.quota).toEqual({ used: 1, reserved: 0 });
    expect(after.status).toBe('sent');
    expect(after.events).toEqual([
      {
        type: 'invite.sent',
        data: expect.objectContaining({ inviteId: s.invite.id, status: 'sent', channel: 'email', batchId: null, sendBatchId: batchId, failReason: null }),
      },
    ]);
    // The record step stores the send that left on the invite: the respondent's stage events carry it.
    const { rows: stored } = await t.ctx.db.execute<{ channel: string; send_batch_id: string }>(sql`SELECT channel, send_batch_id FROM invites WHERE id = ${s.invite.id}`);
    expect(stored).toEqual([{ channel: 'email', send_batch_id: batchId }]);
    expect((await respondentClient(t).get(`/r/v1/invites/${s.invite.token}`)).statusCode).toBe(200);
    const { rows: opened } = await t.ctx.db.execute<{ data: any }>(sql`SELECT data FROM events WHERE company_id = ${s.company.id} AND type = 'invite.opened'`);
    expect(opened.map((e) => e.data)).toEqual([expect.objectContaining({ inviteId: s.invite.id, channel: 'email', batchId: null, sendBatchId: batchId })]);
  });

  it('a sleeping loop is woken by the send\'s commit; the messages of one pass are recorded together, each with its invite.sent and unit', async () => {
    const s = await setup();
    const base = `/v1/forms/${s.survey.form.id}/invites`;
    const others = [];
    for (const email of ['bo@school.edu', 'cy@school.edu']) others.push((await t.post(s.token, base, { email })).json().data);
    // The form's own template: the claim carries only the definition's e-mail block.
    await t.ctx.db.execute(sql`UPDATE forms SET content = jsonb_set(content, '{email}', '{"subject": "About {{formName}}", "body": "Answer here: {{url}}"}') WHERE id = ${s.survey.form.id}`);
    loop = await startOutboundLoop(t.ctx, emailKind(t.ctx, smtpMailer(sink.url, { maxConnections: 2, timeoutMs: 5000 })), { listen: true, pollIntervalMs: null });
    // Asleep: it shows itself to the queueing statement, which notifies at commit.
    await expect.poll(() => sleepers(), { timeout: 5000 }).toBe(1);
    expect((await s.send()).json().data.queued).toBe(3);
    await expect.poll(() => sink.received.length, { timeout: 10_000 }).toBe(3);
    await expect.poll(async () => (await state(s.company.id, s.invite.id)).quota, { timeout: 5000 }).toEqual({ used: 3, reserved: 0 });
    expect(new Set(sink.received.map((mail) => mail.subject))).toEqual(new Set([`About ${s.survey.form.name}`]));
    expect(sink.received.find((mail) => mail.to && 'text' in mail.to && mail.to.text === 'ana@school.edu')!.text).toContain(`Answer here: ${s.invite.url}`);
    const { rows } = await t.ctx.db.execute<{ invite_id: string; n: number }>(sql`
      SELECT data->>'inviteId' AS invite_id, count(*)::int AS n FROM events WHERE company_id = ${s.company.id} AND type = 'invite.sent' GROUP BY 1 ORDER BY 1`);
    expect(rows).toEqual([s.invite.id, ...others.map((o) => o.id)].sort().map((id) => ({ invite_id: id, n: 1 })));
    for (const id of [s.invite.id, ...others.map((o) => o.id)]) expect((await state(s.company.id, id)).messages).toEqual([{ status: 'sent', attempts: 1 }]);
  });

  it('retries transient refusals with backoff: a server failing twice then accepting delivers once', async () => {
    const s = await setup();
    sink.refuse = [451, 451];
    await s.send();
    const l = await startLoop();
    await l.drain();
    expect(sink.received).toHaveLength(0);
    expect((await state(s.company.id, s.invite.id)).messages).toEqual([{ status: 'pending', attempts: 1 }]);
    t.clock.advance(60_000);
    await l.drain();
    t.clock.advance(10 * 60_000);
    await l.drain();
    t.clock.advance(60 * 60_000);
    await l.drain();
    expect(sink.received).toHaveLength(1);
    const after = await state(s.company.id, s.invite.id);
    expect(after.messages).toEqual([{ status: 'sent', attempts: 3 }]);
    // Every attempt carried the same Message-ID, the message's own id at the form host.
    const { rows: message } = await t.ctx.db.execute<{ id: string; provider_message_id: string }>(sql`SELECT id, provider_message_id FROM invite_messages WHERE invite_id = ${s.invite.id}`);
    const stable = `<${message[0].id}@${new URL(t.ctx.config.publicFormUrl).hostname}>`;
    expect([...sink.refused, ...sink.received].map((mail) => mail.messageId)).toEqual([stable, stable, stable]);
    expect(message[0].provider_message_id).toBe(stable.slice(1, -1));
    expect(after.events.map((e) => e.type)).toEqual(['invite.sent']);
    expect(after.quota).toEqual({ used: 1, reserved: 0 });
  });

  it('a permanent refusal ends as invite.failed (send_failed) with the unit consumed', async () => {
    const s = await setup();
    sink.refuse = [550];
    await s.send();
    await (await startLoop()).drain();
    const after = await state(s.company.id, s.invite.id);
    expect(after.status).toBe('failed');
    expect(after.events).toEqual([{ type: 'invite.failed', data: expect.objectContaining({ status: 'failed', failReason: 'send_failed' }) }]);
    expect(after.quota).toEqual({ used: 1, reserved: 0 });
  });

  it('revoke during a scheduled send: the unit comes back and nothing is delivered', async () => {
    const s = await setup();
    await s.send({ scheduleAt: '2026-03-02T12:00:00.000Z' });
    const l = await startLoop();
    await l.drain();
    expect(sink.received).toHaveLength(0);
    await t.post(s.token, `/v1/invites/${s.invite.id}/revoke`);
    t.clock.set('2026-03-02T12:00:01.000Z');
    await l.drain();
    expect(sink.received).toHaveLength(0);
    expect(await state(s.company.id, s.invite.id)).toMatchObject({ quota: { used: 0, reserved: 0 }, status: 'revoked', messages: [{ status: 'cancelled' }] });
    t.clock.set('2026-03-02T09:00:00.000Z');
  });

  it('an address suppressed after the send call is not mailed when its turn comes: invite.failed (suppressed), unit returned', async () => {
    const s = await setup();
    await s.send();
    await suppress(t.ctx.db, t.ctx, { companyId: s.company.id, addresses: ['ana@school.edu'], reason: 'unsubscribed' });
    await (await startLoop()).drain();
    expect(sink.received).toHaveLength(0);
    const after = await state(s.company.id, s.invite.id);
    expect(after.events).toEqual([{ type: 'invite.failed', data: expect.objectContaining({ failReason: 'suppressed' }) }]);
    expect(after.quota).toEqual({ used: 0, reserved: 0 });
  });

  it('without SMTP_URL the message lands in the development mailbox', async () => {
    const s = await setup({ email: 'dev@school.edu' });
    await s.send();
    loop = await startOutboundLoop(t.ctx, emailKind(t.ctx), { listen: false, pollIntervalMs: null });
    await loop.drain();
    const [mail] = await listDevMail(t.ctx.db, t.ctx);
    expect(mail).toMatchObject({ to: 'dev@school.edu', headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } });
    expect(mail.html).toContain(s.invite.url);
    expect((await state(s.company.id, s.invite.id)).status).toBe('sent');
    const list = await t.app.inject({ url: '/dev/mail' });
    expect(list.body).toContain(`href="/dev/mail/${mail.id}"`);
    const page = await t.app.inject({ url: `/dev/mail/${mail.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<iframe sandbox="" srcdoc="&lt;!DOCTYPE html&gt;');
    expect((await t.app.inject({ url: '/dev/mail/00000000-0000-7000-8000-000000000000' })).statusCode).toBe(404);
  });
});
