import type { DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { updateCompanySettings, type Settings, type SettingsPatch } from '../companies/company-settings.js';
import { recomputeOpenDeadlines } from './holidays.js';

/**
 * updateCompanySettings, and when the time zone or country changes, the deadlines of the
 * company's open steps move with the new calendar in the same transaction.
 */
export async function updateSettingsAndDeadlines(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; patch: SettingsPatch }): Promise<Settings> {
  const { companyId, patch } = input;
  return db.transaction(async (tx) => {
    const settings = await updateCompanySettings(tx, deps, { companyId, patch });
    if (patch.timeZone !== undefined || patch.defaultCountry !== undefined) await recomputeOpenDeadlines(tx, deps, { companyId });
    return settings;
  });
}
