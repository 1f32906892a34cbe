import { sql, type SQL } from 'drizzle-orm';

/** YYYY-MM-DD of a UTC date. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;
function nextMonth(day: string): string {
  const date = new Date(`${firstOfMonth(day)}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return isoDay(date);
}
const dayAfter = (day: string) => isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000));

/** The month row (its first day) a UTC day counts in. */
export const monthOf = firstOfMonth;

/**
 * The rollup rows (migration 0520) that cover the UTC days [from, to] (inclusive, open when
 * absent) exactly once: the month rows of the whole months inside, the day rows of the rest.
 * A condition on the unqualified columns span and day.
 */
export function spanCondition(from?: string, to?: string): SQL {
  // Whole months inside the period: [monthsFrom, monthsTo), an open end unbounded.
  const monthsFrom = from === undefined ? undefined : from === firstOfMonth(from) ? from : nextMonth(from);
  const monthsTo = to === undefined ? undefined : firstOfMonth(dayAfter(to)) === dayAfter(to) ? dayAfter(to) : firstOfMonth(to);
  if (monthsFrom !== undefined && monthsTo !== undefined && monthsFrom >= monthsTo) {
    return sql`(span = 'day' AND day >= ${from}::date AND day <= ${to}::date)`;
  }
  const parts = [
    sql`(span = 'month'${monthsFrom === undefined ? sql`` : sql` AND day >= ${monthsFrom}::date`}${monthsTo === undefined ? sql`` : sql` AND day < ${monthsTo}::date`})`,
  ];
  if (from !== undefined && from < monthsFrom!) parts.push(sql`(span = 'day' AND day >= ${from}::date AND day < ${monthsFrom}::date)`);
  if (to !== undefined && monthsTo! <= to) parts.push(sql`(span = 'day' AND day >= ${monthsTo}::date AND day <= ${to}::date)`);
  return sql`(${sql.join(parts, sql` OR `)})`;
}
