import type { SettingsConsumer } from '../companies/index.js';
import { hasPublicHolidays } from './holiday-rules.js';

/** When a company's time zone or holiday country changes, the deadlines of its open steps move with the new calendar. */
export const calendarConsumer: SettingsConsumer = {
  name: 'treatments',
  // A country date-holidays does not know would silently skip nothing: refuse it instead.
  patchErrors: ({ holidayCountry: country }) =>
    typeof country === 'string' && !hasPublicHolidays(country)
      ? [{ path: 'holidayCountry', code: 'invalid_value', message: `no public holiday calendar is known for ${country}` }]
      : [],
  // The deadlines' code loads with the first change that moves them: every context holds this consumer.
  async onSettingsChanged(tx, deps, { companyId, update }) {
    if (!update.changes.timeZone && !update.changes.holidayCountry) return;
    const { recomputeOpenDeadlines } = await import('./holidays.js');
    await recomputeOpenDeadlines(tx, deps, { companyId });
  },
};
