import { and, eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { noDeps } from '../../lib/service.js';
import { findForm } from '../forms/index.js';
import { loadWorkingCalendar, type WorkingCalendar } from '../treatments/index.js';
import { remindableSql, type ScheduleRef } from './reminder-state.js';
import type { ReminderSchedule } from './schedule-input.js';
import { reminderSchedules } from './table.js';

export interface ScheduleView extends ReminderSchedule {
  /** When the sweep next sends a reminder of this schedule (its first working day at the local hour); null: nobody left to remind. */
  nextRunAt: string | null;
  /** Invites still to be reminded (sent, not responded, revoked or expired, steps left). */
  pending: number;
  /** The company's time zone, in which localHour is read. */
  timeZone: string;
  updatedAt: string;
}

/**
 * The first moment from `day` (a local date, possibly past) at which the sweep sends: the schedule's
 * hour of the first working day not before it; today's hour already past on a working day is now.
 */
export function nextSendingMoment(calendar: WorkingCalendar, now: Date, day: string, localHour: number): Date {
  const local = DateTime.fromJSDate(now, { zone: calendar.zone });
  let candidate = DateTime.fromISO(day, { zone: calendar.zone }).startOf('day');
  if (candidate < local.startOf('day')) candidate = local.startOf('day');
  for (;;) {
    if (calendar.isWorkingDay(candidate)) {
      const at = candidate.set({ hour: localHour });
      if (at > local) return at.toJSDate();
      if (candidate.hasSame(local, 'day')) return now;
    }
    candidate = candidate.plus({ days: 1 });
  }
}

/** The form's reminder schedules (one per channel), each with its next run; [] when none is set. */
export async function showReminderSchedules(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; formId: string }): Promise<ScheduleView[]> {
  const { companyId, formId } = input;
  if (!(await findForm(db, noDeps, { companyId, id: formId }))) throw notFound('Form');
  const schedules = await db.select().from(reminderSchedules).where(and(eq(reminderSchedules.companyId, companyId), eq(reminderSchedules.formId, formId))).orderBy(reminderSchedules.channel);
  if (schedules.length === 0) return [];
  const calendar = await loadWorkingCalendar(db, companyId);
  const now = deps.clock.now();
  const views: ScheduleView[] = [];
  for (const s of schedules) {
    // The earliest day anyone is due, never the day of their last reminder (one a day).
    const { rows } = await db.execute<{ day: string | null; pending: number }>(sql`
      SELECT to_char(min(greatest(least(next_day, final_day), last_day + 1)), 'YYYY-MM-DD') AS day, count(*)::int AS pending
        FROM (${remindableSql(s as ScheduleRef, calendar.zone, now)}) r
       WHERE next_day IS NOT NULL OR final_day IS NOT NULL`);
    const { day, pending } = rows[0];
    views.push({
      formId: s.formId, channel: s.channel, afterDays: s.afterDays, maxReminders: s.maxReminders, localHour: s.localHour, finalDaysBefore: s.finalDaysBefore, template: s.template ?? null,
      nextRunAt: day === null ? null : nextSendingMoment(calendar, now, day, s.localHour).toISOString(),
      pending, timeZone: calendar.zone, updatedAt: s.updatedAt.toISOString(),
    });
  }
  return views;
}
