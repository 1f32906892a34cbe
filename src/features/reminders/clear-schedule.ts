import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { ApiError } from '../../lib/errors.js';
import type { NoDeps } from '../../lib/service.js';
import type { ReminderChannel } from './schedule-input.js';
import { reminderSchedules } from './table.js';

/** Removes the form's schedule on one channel: no further reminders; those already queued still leave. */
export async function clearReminderSchedule(db: DbOrTx, _deps: NoDeps, input: { companyId: string; formId: string; channel: ReminderChannel }): Promise<void> {
  const removed = await db
    .delete(reminderSchedules)
    .where(and(eq(reminderSchedules.companyId, input.companyId), eq(reminderSchedules.formId, input.formId), eq(reminderSchedules.channel, input.channel)))
    .returning({ formId: reminderSchedules.formId });
  if (removed.length === 0) throw new ApiError('NOT_FOUND', `The form has no ${input.channel} reminder schedule.`);
}
