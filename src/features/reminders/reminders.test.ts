import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { respondentClient } from '../../../test/respondent.js';
import { createSurvey } from '../../../test/responses.js';
import { SmtpSink } from '../../../test/smtp-sink.js';
import { updateCompanySettings } from '../companies/company-settings.js';
import { importForm } from '../forms/import-form.js';
import { emailKind } from '../messaging/email-kind.js';
import { smtpMailer } from '../messaging/smtp-mailer.js';
import { startOutboundLoop, type OutboundLoop } from '../../platform/outbound/loop.js';
import { addHoliday } from '../treatments/holidays.js';
import { noDeps } from '../../lib/service.js';
import { clearReminderSchedule, sendReminders, setReminderSchedule, showReminderSchedules } from './index.js';

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
});
afterAll(async () => {
  // Either may be missing when the setup failed (its error is the one to read).
  await sink?.close();
  await t?.close();
});

/** Sends every due message over SMTP to the sink. */
async function drain() {
  loop ??= await startOutboundLoop(t.ctx, emailKind(t.ctx, smtpMailer(sink.url, { maxConnections: 2, timeoutMs: 5000 })), { listen: false, pollIntervalMs: null });
  await loop.drain();
}

const sweep = (companyId: string, batchSize?: number) => sendReminders(t.ctx.db, t.ctx, { companyId, batchSize });

/** A company in São Paulo's zone (UTC-3), the survey, invites for `emails` and their invitation sent and delivered to the sink. */
async function campaign(emails: string[], invite: object = {}) {
  const tenant = await t.tenant();
  const companyId = tenant.company.id;
  await updateCompanySettings(t.ctx.db, t.ctx, { companyId, patch: { timeZone: 'America/Sao_Paulo' } });
  const survey = await createSurvey(t, companyId);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const invites = [];
  for (const email of emails) invites.push((await t.post(tenant.token, base, { email, name: email.split('@')[0], ...invite })).json().data);
  expect((await t.post(tenant.token, `${base}/send`, { channel: 'email' })).json().data.queued).toBe(emails.length);
  // The drain also sends what earlier steps left queued (the sink then drops it): count this campaign's own.
  await drain();
  expect(sink.received.filter((m) => emails.includes((m.to as { text: string }).text))).toHaveLength(emails.length);
  sink.received.length = 0;
  return { ...tenant, companyId, survey, invites };
}

async function facts(companyId: string) {
  const { rows: events } = await t.ctx.db.execute<{ type: string; invite_id: string }>(sql`
    SELECT type, data->>'inviteId' AS invite_id FROM events WHERE company_id = ${companyId} AND type LIKE 'invite.%' ORDER BY occurred_at, id`);
  const { rows: quota } = await t.ctx.db.execute<{ used: number; reserved: number }>(sql`SELECT used, reserved FROM quota_usage WHERE company_id = ${companyId}`);
  const { rows: steps } = await t.ctx.db.execute<{ invite_id: string; step: number; skip_reason: string | null }>(sql`
    SELECT invite_id::text, step, skip_reason FROM reminder_steps WHERE company_id = ${companyId} ORDER BY invite_id, step`);
  const { rows: messages } = await t.ctx.db.execute<{ purpose: string; status: string; n: number }>(sql`
    SELECT purpose, status, count(*)::int AS n FROM invite_messages WHERE company_id = ${companyId} GROUP BY 1, 2 ORDER BY 1, 2`);
  return { sent: events.filter((e) => e.type === 'invite.sent').length, quota: quota[0], steps, messages };
}

const at = (iso: string) => t.clock.set(new Date(iso));

describe('reminder schedules', () => {
  it('reminds N days after the first send at the local hour, skips weekends and holidays, at most K times, through the personal link and the reminder template', async () => {
    // TEST_START: Monday 2026-03-02 09:00Z, 06:00 in São Paulo; the invitation leaves then.
    const c = await campaign(['ana@school.edu']);
    await setReminderSchedule(t.ctx.db, t.ctx, { companyId: c.companyId, formId: c.survey.form.id, channel: 'email', afterDays: 2, maxReminders: 2, localHour: 10, finalDaysBefore: null, template: null });
    await addHoliday(t.ctx.db, noDeps, { companyId: c.companyId, day: '2026-03-06', name: 'Founders day' });
    const [view] = await showReminderSchedules(t.ctx.db, t.ctx, { companyId: c.companyId, formId: c.survey.form.id });
    expect(view).toMatchObject({ channel: 'email', afterDays: 2, maxReminders: 2, localHour: 10, pending: 1, timeZone: 'America/Sao_Paulo', nextRunAt: '2026-03-04T13:00:00.000Z' });
    // The read-only API extension shows the same (the harness checks the answer against the OpenAPI document).
    const read = await t.get(c.token, `/v1/forms/${c.survey.form.id}/reminders`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toEqual([
      { channel: 'email', afterDays: 2, maxReminders: 2, localHour: 10, finalDaysBefore: null, timeZone: 'America/Sao_Paulo', pending: 1, nextRunAt: '2026-03-04T13:00:00.000Z', updatedAt: expect.any(String) },
    ]);
    const other = await t.tenant();
    expect((await t.get(other.token, `/v1/forms/${c.survey.form.id}/reminders`)).statusCode).toBe(404);

    // Wednesday 09:00 local: the day, not yet the hour.
    at('2026-03-04T12:00:00Z');
    expect(await sweep(c.companyId)).toBe(0);
    at('2026-03-04T13:00:00Z');
    expect(await sweep(c.companyId)).toBe(1);
    // Once a step is taken, a second sweeper (or the next run) finds nothing.
    expect(await sweep(c.companyId)).toBe(0);
    await drain();
    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0];
    expect(mail.subject).toBe(`Reminder from ${c.company.name}: ${c.survey.form.name}`);
    expect(mail.text).toContain(`${c.company.name} has not received your answer`);
    expect(mail.text).toContain(c.invites[0].url);
    expect((await facts(c.companyId)).sent).toBe(2);
    expect((await facts(c.companyId)).quota).toEqual({ used: 2, reserved: 0 });

    // The second is due Friday, a company holiday, then the weekend: Monday at 10:00 local.
    expect((await showReminderSchedules(t.ctx.db, t.ctx, { companyId: c.companyId, formId: c.survey.form.id }))[0].nextRunAt).toBe('2026-03-09T13:00:00.000Z');
    for (const day of ['2026-03-06', '2026-03-07', '2026-03-08']) {
      at(`${day}T15:00:00Z`);
      expect(await sweep(c.companyId)).toBe(0);
    }
    at('2026-03-09T13:30:00Z');
    expect(await sweep(c.companyId)).toBe(1);
    // K = 2: nobody is left to remind.
    at('2026-03-20T15:00:00Z');
    expect(await sweep(c.companyId)).toBe(0);
    expect((await showReminderSchedules(t.ctx.db, t.ctx, { companyId: c.companyId, formId: c.survey.form.id }))[0]).toMatchObject({ pending: 0, nextRunAt: null });
    const f = await facts(c.companyId);
    expect(f.steps.map((s) => s.step)).toEqual([1, 2]);
    expect(f.messages).toEqual([{ purpose: 'invitation', status: 'sent', n: 1 }, { purpose: 'reminder', status: 'pending', n: 1 }, { purpose: 'reminder', status: 'sent', n: 1 }]);
    // The second leaves with the next drain (and is not left queued for the tests after this one).
    await drain();
    expect(sink.received.map((m) => m.subject)).toEqual([`Reminder from ${c.company.name}: ${c.survey.form.name}`, `Reminder from ${c.company.name}: ${c.survey.form.name}`]);
  });

  it('sends a final reminder before expiresAt in the form\'s own reminder template and language; none after the expiry', async () => {
    const c = await campaign(['bo@school.edu'], { expiresAt: '2026-03-20T23:00:00.000Z' });
    await t.ctx.db.execute(sql`UPDATE forms SET language = 'pt-BR' WHERE id = ${c.survey.form.id}`);
    await setReminderSchedule(t.ctx.db, t.ctx, { companyId: c.companyId, formId: c.survey.form.id, channel: 'email', afterDays: 30, maxReminders: 1, localHour: 9, finalDaysBefore: 2, template: null });
    // 2026-03-18 (Wednesday) is two local days before the expiry.
    at('2026-03-17T15:00:00Z');
    expect(await sweep(c.companyId)).toBe(0);
    at('2026-03-18T12:00:00Z');
    expect(await sweep(c.companyId)).toBe(1);
    await drain();
    expect(sink.received.map((m) => m.subject)).toEqual([`Lembrete de ${c.company.name}: ${c.survey.form.name}`]);
    expect(sink.received[0].text).toContain(`${c.company.name} ainda não recebeu sua resposta`);
    // The final one is the last: nothing more, before or after the expiry.
    at('2026-03-19T12:00:00Z');
    expect(await sweep(c.companyId)).toBe(0);
    expect((await facts(c.companyId)).steps).toEqual([{ invite_id: c.invites[0].id, step: 0, skip_reason: null }]);

    // A form's own reminder block wins over the default.
    at('2026-03-18T12:00:00Z');
    const d = await campaign(['cy@school.edu']);
    await t.ctx.db.execute(sql`UPDATE forms SET content = jsonb_set(content, '{reminder}', '{"subject": "Still time, {{name}}", "body": "Answer here: {{url}}"}') WHERE id = ${d.survey.form.id}`);
    await setReminderSchedule(t.ctx.db, t.ctx, { companyId: d.companyId, formId: d.survey.form.id, channel: 'email', afterDays: 1, maxReminders: 1, localHour: 9, finalDaysBefore: null, template: null });
    // Sent on Wednesday the 18th (where the clock stands): reminded on Thursday.
    at('2026-03-19T12:00:00Z');
    expect(await sweep(d.companyId)).toBe(1);
    await drain();
    expect(sink.received.map((m) => m.subject)).toEqual(['Still time, cy']);
    expect(sink.received[0].text).toContain(`Answer here: ${d.invites[0].url}`);
  });

  it('stops for an invite the moment it is responded or revoked, also when the response arrives while its reminder is queued', async () => {
    const c = await campaign(['a@school.edu', 'b@school.edu', 'c@school.edu']);
    const [a, b, cc] = c.invites;
    await setReminderSchedule(t.ctx.db, t.ctx, { companyId: c.companyId, formId: c.survey.form.id, channel: 'email', afterDays: 1, maxReminders: 3, localHour: 9, finalDaysBefore: null, template: null });
    // a answers before the sweep, b is revoked: neither is reminded.
    const client = respondentClient(t);
    expect((await client.post(`/r/v1/invites/${a.token}/submit`, { answers: { [c.survey.ratingId]: 4 } })).statusCode).toBe(201);
    expect((await t.post(c.token, `/v1/invites/${b.id}/revoke`)).statusCode).toBe(200);
    at('2026-03-03T12:00:00Z');
    expect(await sweep(c.companyId)).toBe(1);
    // c answers while its reminder waits for the loop: the message is cancelled, its unit returned, no mail.
    expect((await client.post(`/r/v1/invites/${cc.token}/submit`, { answers: { [c.survey.ratingId]: 5 } })).statusCode).toBe(201);
    await drain();
    expect(sink.received).toHaveLength(0);
    const f = await facts(c.companyId);
    expect(f.quota).toEqual({ used: 3, reserved: 0 });
    expect(f.messages).toEqual([{ purpose: 'invitation', status: 'sent', n: 3 }, { purpose: 'reminder', status: 'cancelled', n: 1 }]);
    expect(f.sent).toBe(3);
    // Nobody is left: the next days remind no one.
    at('2026-03-04T12:00:00Z');
    expect(await sweep(c.companyId)).toBe(0);
  });

  it('two sweepers racing take each step once: every invite gets one reminder, one mail', async () => {
    const emails = Array.from({ length: 30 }, (_, i) => `p${i}@school.edu`);
    const c = await campaign(emails);
    await setReminderSchedule(t.ctx.db, t.ctx, { companyId: c.companyId, formId: c.survey.form.id, channel: 'email', afterDays: 1, maxReminders: 1, localHour: 9, finalDaysBefore: null, template: null });
    at('2026-03-03T12:00:00Z');
    const handled = await Promise.all([sweep(c.companyId, 4), sweep(c.companyId, 4), sweep(c.companyId, 7)]);
    expect(handled.reduce((sum, n) => sum + n, 0)).toBe(30);
    const f = await facts(c.companyId);
    expect(f.steps).toHaveLength(30);
    expect(new Set(f.steps.map((s) => s.invite_id)).size).toBe(30);
    await drain();
    expect(sink.received).toHaveLength(30);
    expect(new Set(sink.received.map((m) => (m.to as { text: string }).text)).size).toBe(30);
    expect((await facts(c.companyId)).quota).toEqual({ used: 60, reserved: 0 });
  });

  it('uses the month\'s quota like any send: a reminder that does not fit takes no step and goes out once the quota allows', async () => {
    const c = await campaign(['q1@school.edu', 'q2@school.edu']);
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: c.companyId, patch: { monthlyQuota: 3 } });
    await setReminderSchedule(t.ctx.db, t.ctx, { companyId: c.companyId, formId: c.survey.form.id, channel: 'email', afterDays: 1, maxReminders: 1, localHour: 9, finalDaysBefore: null, template: null });
    at('2026-03-03T12:00:00Z');
    expect(await sweep(c.companyId)).toBe(0);
    expect((await facts(c.companyId)).steps).toEqual([]);
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: c.companyId, patch: { monthlyQuota: 10 } });
    expect(await sweep(c.companyId)).toBe(2);
    // A suppressed address is skipped by the send path; its step is spent with the reason.
    const d = await campaign(['s@school.edu']);
    await t.ctx.db.execute(sql`INSERT INTO suppressions (company_id, address, reason, created_at) VALUES (${d.companyId}, 's@school.edu', 'unsubscribed', ${t.clock.now()})`);
    await setReminderSchedule(t.ctx.db, t.ctx, { companyId: d.companyId, formId: d.survey.form.id, channel: 'email', afterDays: 1, maxReminders: 1, localHour: 9, finalDaysBefore: null, template: null });
    at('2026-03-04T12:00:00Z');
    expect(await sweep(d.companyId)).toBe(1);
    expect((await facts(d.companyId)).steps).toEqual([{ invite_id: d.invites[0].id, step: 1, skip_reason: 'suppressed' }]);
  });

  it('refuses schedules out of bounds and another company\'s form; clears a schedule', async () => {
    const c = await campaign(['z@school.edu']);
    const base = { companyId: c.companyId, formId: c.survey.form.id, channel: 'email' as const, afterDays: 2, maxReminders: 2, localHour: 9, finalDaysBefore: null, template: null };
    await expect(setReminderSchedule(t.ctx.db, t.ctx, { ...base, afterDays: 0, localHour: 24 })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ path: 'afterDays', code: 'too_small' }, { path: 'localHour', code: 'too_large' }].map((field) => expect.objectContaining(field)) },
    });
    await expect(setReminderSchedule(t.ctx.db, t.ctx, { ...base, maxReminders: 0 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    const other = await t.company();
    await expect(setReminderSchedule(t.ctx.db, t.ctx, { ...base, companyId: other.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await setReminderSchedule(t.ctx.db, t.ctx, base);
    await expect(showReminderSchedules(t.ctx.db, t.ctx, { companyId: other.id, formId: c.survey.form.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await clearReminderSchedule(t.ctx.db, noDeps, { companyId: c.companyId, formId: c.survey.form.id, channel: 'email' });
    expect(await showReminderSchedules(t.ctx.db, t.ctx, { companyId: c.companyId, formId: c.survey.form.id })).toEqual([]);
    await expect(clearReminderSchedule(t.ctx.db, noDeps, { companyId: c.companyId, formId: c.survey.form.id, channel: 'email' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // The form definition's reminder block is checked as the invitation's is.
    const form = { slug: 'bad-reminder', name: 'Bad reminder', sections: [{ key: 's', name: 'S', questions: [{ key: 'q', name: 'Q', type: 'TEXT' }] }], reminder: { subject: 'Hi {{nickname}}' } };
    await expect(importForm(t.ctx.db, t.ctx, { companyId: c.companyId, rawJson: form })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [expect.objectContaining({ path: 'reminder.subject', code: 'unknown_reference' })] },
    });
  });
});
