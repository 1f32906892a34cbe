/**
 * The one reader of dates and date-times written by clients and operators: route schemas (as the
 * ajv formats `date` and `date-time`), services and the CLI all use it, so a value accepted in one
 * field is accepted in every other.
 *
 * - A day is `YYYY-MM-DD`, a real calendar day from 0001-01-01 to 9999-12-31 (Postgres has no year 0).
 * - A date-time is RFC 3339 (section 5.6): `T` or `t`, seconds required, any fraction, `Z`/`z` or a
 *   `±HH:MM` offset. The instant must lie in years 0001 to 9999 in UTC, so it can be written back
 *   as the contract's `2026-03-01T12:00:00.000Z`.
 * - A leap second (`:60`) is accepted where RFC 3339 allows one, at 23:59:60 UTC (any offset
 *   applied), and read as the instant that follows 23:59:59.999: JavaScript dates and Postgres
 *   count no leap seconds, and that is how Postgres itself reads one. Any other `:60` is refused.
 */

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const DAY_MS = 86_400_000;
/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
const FIRST_MS = new Date(0).setUTCFullYear(1, 0, 1);
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Midnight UTC of a day as epoch milliseconds, or null when the text names no real day. */
function dayStart(text: string): number | null {
  const match = DAY_RE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // Date.UTC would read years 0-99 as 1900-1999
  return date.getUTCDate() === day ? date.getTime() : null;
}

/** The day as written when it is one (YYYY-MM-DD, 0001-01-01 to 9999-12-31), else null. */
export function parseDay(text: string): string | null {
  return dayStart(text) === null ? null : text;
}

/** The instant an RFC 3339 date-time names (rules above), or null. */
export function parseInstant(text: string): Date | null {
  const match = DATE_TIME_RE.exec(text);
  if (!match) return null;
  const [, day, hh, mm, ss, fraction = '', zulu, sign, offH, offM] = match;
  const start = dayStart(day);
  const [hours, minutes, seconds] = [Number(hh), Number(mm), Number(ss)];
  if (start === null || hours > 23 || minutes > 59 || seconds > 60) return null;
  const offsetHours = zulu ? 0 : Number(offH);
  const offsetMinutes = zulu ? 0 : Number(offM);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const offsetMs = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const millis = Number(`${fraction.slice(1)}000`.slice(0, 3)); // milliseconds: later digits are dropped
  const at = start + ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis - offsetMs;
  // A leap second ends a UTC day: its instant, read as the next second, is a UTC midnight.
  if (seconds === 60 && (at - millis) % DAY_MS !== 0) return null;
  if (at < FIRST_MS || at > LAST_MS) return null;
  return new Date(at);
}

/** The day after a day (YYYY-MM-DD), or null past 9999-12-31. */
export function dayAfter(day: string): string | null {
  return isoDay(dayStart(day)! + DAY_MS);
}

/** The first day of the month after a day's month, or null past 9999-12. */
export function nextMonthStart(day: string): string | null {
  const [year, month] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
  return month === 12 ? (year === 9999 ? null : `${String(year + 1).padStart(4, '0')}-01-01`) : `${day.slice(0, 5)}${String(month + 1).padStart(2, '0')}-01`;
}

/** The UTC day of epoch milliseconds as YYYY-MM-DD, or null outside years 0001 to 9999. */
function isoDay(ms: number): string | null {
  if (ms < FIRST_MS || ms > LAST_MS) return null;
  return new Date(ms).toISOString().slice(0, 10);
}
