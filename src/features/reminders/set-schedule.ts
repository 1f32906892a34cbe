import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { noDeps } from '../../lib/service.js';
import { findForm } from '../forms/index.js';
import { checkSchedule, type ReminderChannel, type ScheduleSettings } from './schedule-input.js';
import { reminderSchedules } from './table.js';

/**
 * Sets (creates or replaces) the form's reminder schedule on one channel. Steps already taken
 * stay taken: a schedule changed from 3 to 2 reminders stops invites that had 2.
 */
export async function setReminderSchedule(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; formId: string; channel: ReminderChannel } & ScheduleSettings): Promise<void> {
  checkSchedule(input);
  const { companyId, formId, channel } = input;
  if (!(await findForm(db, noDeps, { companyId, id: formId }))) throw notFound('Form');
  const now = deps.clock.now();
  const settings = { afterDays: input.afterDays, maxReminders: input.maxReminders, localHour: input.localHour, finalDaysBefore: input.finalDaysBefore, template: input.template, updatedAt: now };
  await db
    .insert(reminderSchedules)
    .values({ companyId, formId, channel, ...settings, createdAt: now })
    .onConflictDoUpdate({ target: [reminderSchedules.companyId, reminderSchedules.formId, reminderSchedules.channel], set: { ...settings, updatedAt: sql`excluded.updated_at` } });
}
