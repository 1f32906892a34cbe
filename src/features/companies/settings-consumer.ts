import type { Tx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { FieldError } from '../../lib/errors.js';
import type { CompanyUpdate, SettingsPatch } from './company-settings.js';

/**
 * A feature that follows a company's settings inside the transaction that changes them (treatments
 * move open deadlines to a new calendar): the change commits with what it decides or not at all.
 * Listed in the feature's feature.ts; the context hands the list to updateCompanySettings through its deps.
 */
export interface SettingsConsumer {
  name: string;
  /** Faults of its own in a patch, reported with the settings' own (one per field). */
  patchErrors?(patch: SettingsPatch): FieldError[];
  onSettingsChanged(tx: Tx, deps: { clock: Clock }, input: { companyId: string; update: CompanyUpdate }): Promise<void>;
}
