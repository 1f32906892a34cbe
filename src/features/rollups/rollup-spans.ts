import { sql, type SQL } from 'drizzle-orm';
import { dayAfter, nextMonthStart } from '../../lib/date-time.js';

const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;

/** The month row (its first day) a UTC day counts in. */
export const monthOf = firstOfMonth;

/**
 * The rollup rows (migration 0520) that cover the UTC days [from, to] (inclusive, open when
 * absent) exactly once: the month rows of the whole months inside, the day rows of the rest.
 * A condition on the unqualified columns span and day.
 */
export function spanCondition(from?: string, to?: string): SQL {
  // Whole months inside the period: [monthsFrom, monthsTo), an open end unbounded. No month starts
  // after a day of December 9999 (monthsFrom null), and a period to 9999-12-31 ends nowhere earlier.
  const monthsFrom = from === undefined ? undefined : from === firstOfMonth(from) ? from : nextMonthStart(from);
  const after = to === undefined ? null : dayAfter(to);
  const monthsTo = after === null ? undefined : firstOfMonth(after) === after ? after : firstOfMonth(to!);
  if (monthsFrom === null || (monthsFrom !== undefined && monthsTo !== undefined && monthsFrom >= monthsTo)) {
    return sql`(span = 'day'${from === undefined ? sql`` : sql` AND day >= ${from}::date`}${to === undefined ? sql`` : sql` AND day <= ${to}::date`})`;
  }
  const parts = [
    sql`(span = 'month'${monthsFrom === undefined ? sql`` : sql` AND day >= ${monthsFrom}::date`}${monthsTo === undefined ? sql`` : sql` AND day < ${monthsTo}::date`})`,
  ];
  if (from !== undefined && from < monthsFrom!) parts.push(sql`(span = 'day' AND day >= ${from}::date AND day < ${monthsFrom}::date)`);
  if (to !== undefined && monthsTo !== undefined && monthsTo <= to) parts.push(sql`(span = 'day' AND day >= ${monthsTo}::date AND day <= ${to}::date)`);
  return sql`(${sql.join(parts, sql` OR `)})`;
}
