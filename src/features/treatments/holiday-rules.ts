import type Holidays from 'date-holidays';
import { lazyRequire } from '../../lib/lazy-require.js';

// Every context reaches this module (the treatments settings consumer); only deadlines and settings read the rules.
export const holidayRules = lazyRequire<typeof Holidays>('date-holidays');

/** Whether date-holidays has a calendar for the country (ISO 3166-1 alpha-2). */
export function hasPublicHolidays(country: string): boolean {
  const Rules = holidayRules();
  return Object.hasOwn(new Rules().getCountries(), country);
}
