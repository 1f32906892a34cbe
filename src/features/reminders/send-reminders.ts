import { eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Db, Tx } from '../../platform/db/database.js';
import { inBatches } from '../../platform/jobs/define-sweep.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { sqlArray } from '../../lib/sql-array.js';
import { sendInvites } from '../invites/index.js';
import { loadWorkingCalendar, type WorkingCalendar } from '../treatments/index.js';
import { remindableSql, type ScheduleRef } from './reminder-state.js';
import { reminderSchedules } from './table.js';

/** Invites reminded per transaction: one send call each, its messages and steps committed together. */
export const REMINDER_BATCH = 10_000;

export interface ReminderDeps {
  clock: Clock;
  newId: IdGenerator;
  log?: (message: string) => void;
}

type Schedule = typeof reminderSchedules.$inferSelect;

/**
 * One batch of one schedule in one transaction. The schedule's row is claimed FOR UPDATE SKIP
 * LOCKED, so a concurrent sweeper passes over a schedule being worked on instead of waiting; the
 * steps' primary key is the guarantee beneath it (a repeat would fail the batch, messages and
 * all, never send twice). The due invites go through the send path as one reminder send (quota,
 * skips and events as any send); a skipped invite's step is spent with its reason.
 */
async function remindBatch(db: Db, deps: ReminderDeps, s: Schedule, zone: string, today: string, limit: number): Promise<number> {
  return db.transaction(async (tx: Tx) => {
    const { rows: held } = await tx.execute(sql`SELECT 1 FROM reminder_schedules
      WHERE company_id = ${s.companyId} AND form_id = ${s.formId} AND channel = ${s.channel} FOR UPDATE SKIP LOCKED`);
    if (held.length === 0) return 0;
    const now = deps.clock.now();
    const { rows: due } = await tx.execute<{ invite_id: string; step: number }>(sql`
      SELECT invite_id::text, CASE WHEN final_day <= ${today}::date THEN 0 ELSE regular + 1 END AS step
        FROM (${remindableSql(s as ScheduleRef, zone, now)}) r
       WHERE (final_day <= ${today}::date OR next_day <= ${today}::date)
         AND (last_day IS NULL OR last_day < ${today}::date)
       LIMIT ${limit}`);
    if (due.length === 0) return 0;
    const ids = due.map((row) => row.invite_id);
    const sent = await sendInvites(tx, deps, {
      companyId: s.companyId, formId: s.formId, channel: s.channel, inviteIds: ids, purpose: 'reminder', ...(s.template ? { template: s.template } : {}),
    });
    const skipped = new Map(sent.skipped.map((skip) => [skip.id, skip.reason]));
    await tx.execute(sql`
      INSERT INTO reminder_steps (company_id, invite_id, channel, step, batch_id, skip_reason, created_at)
      SELECT ${s.companyId}, d.invite_id, ${s.channel}, d.step, ${sent.batchId}, d.reason, ${now}
        FROM unnest(${sqlArray('uuid', ids)}, ${sqlArray('int', due.map((row) => row.step))}, ${sqlArray('text', ids.map((id) => skipped.get(id) ?? null))})
          AS d(invite_id, step, reason)`);
    return due.length;
  });
}

/** The local day and whether reminders may go out now: a working day, at or after the schedule's hour. */
function sendingDay(calendar: WorkingCalendar, now: Date, localHour: number): string | null {
  const local = DateTime.fromJSDate(now, { zone: calendar.zone });
  return calendar.isWorkingDay(local) && local.hour >= localHour ? local.toISODate() : null;
}

/**
 * The reminder sweep: for every schedule whose company is on a working day past the schedule's
 * local hour, the invites due a step, set-wise in batches. A schedule whose send fails (the
 * month's quota exhausted, the WhatsApp channel removed) is logged and left for the next run:
 * its steps were not taken. Answers how many invites were handled.
 */
export async function sendReminders(db: Db, deps: ReminderDeps, input: { companyId?: string; batchSize?: number } = {}): Promise<number> {
  const schedules = await db.select().from(reminderSchedules).where(input.companyId ? eq(reminderSchedules.companyId, input.companyId) : undefined);
  const calendars = new Map<string, WorkingCalendar>();
  let handled = 0;
  for (const s of schedules) {
    if (!calendars.has(s.companyId)) calendars.set(s.companyId, await loadWorkingCalendar(db, s.companyId));
    const calendar = calendars.get(s.companyId)!;
    const today = sendingDay(calendar, deps.clock.now(), s.localHour);
    if (today === null) continue;
    try {
      handled += await inBatches(input.batchSize ?? REMINDER_BATCH, (limit) => remindBatch(db, deps, s, calendar.zone, today, limit));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      deps.log?.(`reminders: form ${s.formId} (${s.channel}) not reminded: ${err.code} ${err.message}`);
    }
  }
  return handled;
}
