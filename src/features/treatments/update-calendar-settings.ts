import type { DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import { companyUpdateErrors, updateCompanySettings, type CompanyUpdate, type SettingsPatch } from '../companies/index.js';
import { recomputeOpenDeadlines } from './holidays.js';
import { hasPublicHolidays } from './working-days.js';

/**
 * updateCompanySettings, and when the time zone or the holiday country changes, the deadlines of
 * the company's open steps move with the new calendar in the same transaction.
 */
export async function updateSettingsAndDeadlines(
  db: DbOrTx,
  deps: { clock: Clock },
  input: { companyId: string; name?: string; patch: SettingsPatch },
): Promise<CompanyUpdate> {
  const { companyId, name, patch } = input;
  const errors = companyUpdateErrors({ name, patch });
  // A country date-holidays does not know would silently skip nothing: refuse it instead.
  const country = patch.holidayCountry;
  if (typeof country === 'string' && !errors.some((e) => e.path === 'holidayCountry') && !hasPublicHolidays(country)) {
    errors.push({ path: 'holidayCountry', code: 'invalid_value', message: `no public holiday calendar is known for ${country}` });
  }
  if (errors.length > 0) throw validationError(errors);
  return db.transaction(async (tx) => {
    const update = await updateCompanySettings(tx, deps, { companyId, name, patch });
    if (update.changes.timeZone || update.changes.holidayCountry) await recomputeOpenDeadlines(tx, deps, { companyId });
    return update;
  });
}
