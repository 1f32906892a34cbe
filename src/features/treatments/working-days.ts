import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { noDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { readCompanySettings } from '../companies/index.js';
import { holidayRules } from './holiday-rules.js';
import { companyHolidays } from './table.js';

/**
 * A company's working calendar: Monday to Friday in its IANA time zone, minus its own holidays
 * and, when it names a holiday country, that country's public holidays (date-holidays). Dates
 * are YYYY-MM-DD in that zone.
 */
export interface WorkingCalendar {
  zone: string;
  isWorkingDay(day: DateTime): boolean;
}

const countryHolidays = new Map<string, Set<string>>();

/** The country's public holidays of one year as local dates (cached: the rules never change at run time). */
function publicHolidays(country: string, year: number): Set<string> {
  const key = `${country}:${year}`;
  let days = countryHolidays.get(key);
  if (!days) {
    const Rules = holidayRules();
    const list = new Rules(country).getHolidays(year) || [];
    days = new Set(list.filter((h) => h.type === 'public').map((h) => h.date.slice(0, 10)));
    countryHolidays.set(key, days);
  }
  return days;
}

export function workingCalendar(zone: string, country: string | null, ownHolidays: Iterable<string>): WorkingCalendar {
  const own = new Set(ownHolidays);
  return {
    zone,
    isWorkingDay(day) {
      if (day.weekday > 5) return false;
      const iso = day.toISODate()!;
      return !own.has(iso) && !(country !== null && publicHolidays(country, day.year).has(iso));
    },
  };
}

export async function loadWorkingCalendar(db: DbOrTx, companyId: string): Promise<WorkingCalendar> {
  const settings = await readCompanySettings(db, noDeps, { companyId });
  const rows = await db.select({ day: companyHolidays.day }).from(companyHolidays).where(eq(companyHolidays.companyId, companyId));
  return workingCalendar(settings.timeZone, settings.holidayCountry, rows.map((r) => r.day));
}

/** Longest step a flow may declare, in working days. */
export const MAX_WORKING_DAYS = 250;

/**
 * The deadline of a step of `workingDays` started at `start`: the end (23:59:59.999 local) of the
 * n-th working day after the day it started, so a step started on a Saturday, or a Friday,
 * counts Monday as its first day. Luxon does the zone and DST arithmetic.
 */
export function workingDeadline(calendar: WorkingCalendar, start: Date, workingDays: number): Date {
  let day = DateTime.fromJSDate(start, { zone: calendar.zone }).startOf('day');
  for (let counted = 0; counted < workingDays; ) {
    day = day.plus({ days: 1 });
    if (calendar.isWorkingDay(day)) counted++;
  }
  return day.endOf('day').toJSDate();
}
