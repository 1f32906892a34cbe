import { sql, type SQL } from 'drizzle-orm';
import type { ReminderChannel } from './schedule-input.js';

/** What the sweep and the next run read of a schedule: its keys and numbers, and the company's zone. */
export interface ScheduleRef {
  companyId: string;
  formId: string;
  channel: ReminderChannel;
  afterDays: number;
  maxReminders: number;
  finalDaysBefore: number | null;
}

/**
 * Each invite still to be reminded on the schedule, set-wise, as the body of a CTE: sent at least
 * once on the channel (the first invitation that left starts the count), not responded, revoked
 * or expired, and without its final reminder. Its columns, local dates in `zone`:
 * `regular` (reminders taken), `next_day` (the day of the next regular one, null once K were
 * taken), `final_day` (the day of the final one, null without expiresAt or finalDaysBefore) and
 * `last_day` (the day of its last reminder, null before the first).
 */
export function remindableSql(s: ScheduleRef, zone: string, now: Date): SQL {
  const day = (column: SQL) => sql`(${column} AT TIME ZONE ${zone})::date`;
  return sql`
    SELECT f.invite_id, coalesce(t.regular, 0) AS regular,
           CASE WHEN coalesce(t.regular, 0) < ${s.maxReminders}
                THEN ${day(sql`f.first_at`)} + (coalesce(t.regular, 0) + 1) * ${s.afterDays} END AS next_day,
           ${s.finalDaysBefore === null ? sql`NULL::date` : sql`${day(sql`i.expires_at`)} - ${s.finalDaysBefore}::int`} AS final_day,
           ${day(sql`t.last_at`)} AS last_day
      FROM (SELECT m.invite_id, min(m.completed_at) AS first_at
              FROM invite_messages m
              JOIN invites i ON i.company_id = m.company_id AND i.id = m.invite_id
             WHERE m.company_id = ${s.companyId} AND i.form_id = ${s.formId} AND m.channel = ${s.channel}
               AND m.purpose = 'invitation' AND m.status = 'sent'
             GROUP BY m.invite_id) f
      JOIN invites i ON i.company_id = ${s.companyId} AND i.id = f.invite_id
      LEFT JOIN (SELECT r.invite_id, count(*) FILTER (WHERE r.step > 0)::int AS regular, bool_or(r.step = 0) AS final, max(r.created_at) AS last_at
                   FROM reminder_steps r
                  WHERE r.company_id = ${s.companyId} AND r.channel = ${s.channel}
                  GROUP BY r.invite_id) t ON t.invite_id = f.invite_id
     WHERE i.status NOT IN ('responded', 'revoked', 'expired') AND (i.expires_at IS NULL OR i.expires_at > ${now})
       AND t.final IS NOT TRUE`;
}
