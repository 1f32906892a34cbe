/** Reminder schedules in the panel: set, read with the next run, refuse bad numbers, clear; audited and tenant-bound. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf } from '../../../test/audit-records.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser, type PanelClient, type PanelSignIn } from '../../../test/panel.js';
import { createSurvey } from '../../../test/responses.js';

let t: TestApp;
let companyId: string;
let staff: PanelSignIn;
let panel: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  ({ id: companyId } = await t.company());
  const signed = await signInPanelUser(t, { companyId, permissions: ['invites'] });
  staff = signed;
  panel = signed.client;
});
afterAll(async () => t?.close());

const SCHEDULE = { afterDays: 3, maxReminders: 2, localHour: 9, finalDaysBefore: 2 };

describe('/panel/api/forms/{id}/reminders', () => {
  it('sets a channel schedule, shows it with its next run and pending count, and clears it', async () => {
    const formId = (await createSurvey(t, companyId)).form.id;
    expect((await panel.get(staff, `/panel/api/forms/${formId}/reminders`)).json().data).toEqual([]);

    const set = await panel.put(staff, `/panel/api/forms/${formId}/reminders/email`, SCHEDULE);
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toEqual([
      { channel: 'email', ...SCHEDULE, pending: 0, nextRunAt: null, timeZone: expect.any(String), updatedAt: t.clock.now().toISOString() },
    ]);
    const [audit] = await auditOf(t, companyId, 'form.reminders.set');
    expect(audit).toMatchObject({ actorUserId: staff.user.id, details: { formId, channel: 'email', ...SCHEDULE, template: null } });

    // Replacing keeps one schedule per channel.
    const replaced = await panel.put(staff, `/panel/api/forms/${formId}/reminders/email`, { ...SCHEDULE, maxReminders: 1, finalDaysBefore: null });
    expect(replaced.json().data).toHaveLength(1);
    expect(replaced.json().data[0]).toMatchObject({ maxReminders: 1, finalDaysBefore: null });

    const cleared = await panel.delete(staff, `/panel/api/forms/${formId}/reminders/email`);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data).toEqual([]);
    expect(await auditOf(t, companyId, 'form.reminders.cleared')).toHaveLength(1);
    const again = await panel.delete(staff, `/panel/api/forms/${formId}/reminders/email`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('NOT_FOUND');
  });

  it('refuses numbers out of bounds and a schedule that never reminds, field by field, storing nothing', async () => {
    const formId = (await createSurvey(t, companyId)).form.id;
    const url = `/panel/api/forms/${formId}/reminders/email`;
    const out = await panel.put(staff, url, { ...SCHEDULE, afterDays: 0, localHour: 24 });
    expect(out.statusCode).toBe(400);
    expect(out.json().error.code).toBe('VALIDATION_ERROR');
    expect(out.json().error.details.fields.map((d: { path: string }) => d.path).sort()).toEqual(['afterDays', 'localHour']);
    const never = await panel.put(staff, url, { ...SCHEDULE, maxReminders: 0, finalDaysBefore: null });
    expect(never.statusCode).toBe(400);
    expect(never.json().error.details.fields[0].path).toBe('maxReminders');
    const unknownChannel = await panel.put(staff, `/panel/api/forms/${formId}/reminders/sms`, SCHEDULE);
    expect(unknownChannel.statusCode).toBe(400);
    expect((await panel.get(staff, `/panel/api/forms/${formId}/reminders`)).json().data).toEqual([]);
  });

  it('keeps a WhatsApp schedule\'s template and refuses one with unknown or over-long fields', async () => {
    const formId = (await createSurvey(t, companyId)).form.id;
    const url = `/panel/api/forms/${formId}/reminders/whatsapp`;
    const template = { name: 'survey_reminder', language: 'pt_BR' };
    expect((await panel.put(staff, url, { ...SCHEDULE, template })).statusCode).toBe(200);
    const { rows } = await t.ctx.pool.query('SELECT template FROM reminder_schedules WHERE form_id = $1 AND channel = $2', [formId, 'whatsapp']);
    expect(rows[0].template).toEqual(template);
    for (const bad of [{ ...template, variables: { 1: '{{name}}' } }, { ...template, name: 'x'.repeat(513) }]) {
      const res = await panel.put(staff, url, { ...SCHEDULE, template: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  it("treats another company's form as missing", async () => {
    const other = await t.company();
    const formId = (await createSurvey(t, other.id)).form.id;
    for (const res of [
      await panel.get(staff, `/panel/api/forms/${formId}/reminders`),
      await panel.put(staff, `/panel/api/forms/${formId}/reminders/email`, SCHEDULE),
      await panel.delete(staff, `/panel/api/forms/${formId}/reminders/email`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });
});
