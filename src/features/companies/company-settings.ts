import { eq, sql } from 'drizzle-orm';
import { getCountries, type CountryCode } from 'libphonenumber-js';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies, type CompanySettings } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError, validationError, type FieldError } from '../../lib/errors.js';
import { changedFields, type FieldChange } from '../../lib/changed-fields.js';
import { DEFAULT_COMPANY_SETTINGS, companyNameErrors } from './create-company.js';
import type { SettingsConsumer } from './settings-consumer.js';
import { BRAND_COLOR_RE, brandColorErrors } from './brand.js';

export const LOCALES = ['en', 'pt-BR', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** A company's settings with every default filled in (the stored jsonb may predate a setting). */
export interface Settings {
  monthlyQuota: number;
  anonymityFloor: number;
  timeZone: string;
  /** Country of phone numbers written without +. */
  defaultCountry: CountryCode;
  /** Country whose public holidays treatment deadlines skip; null (the default): none, Monday to Friday only. */
  holidayCountry: CountryCode | null;
  /** The company's language, the last choice before English; null (a new company's): not set. */
  locale: Locale | null;
  /** "Name <addr>"; null: the deployment's MAIL_FROM. */
  mailFrom: string | null;
  /** Accent of the respondent pages and e-mail, #RRGGBB with AA contrast on white (brand.ts); null: Quorum's blue. */
  brandColor: string | null;
  /** The uploaded logo's file name (brand.ts sets it; not part of a settings patch); null: none. */
  logo: string | null;
}

export function companySettings(stored: CompanySettings): Settings {
  const s = { ...DEFAULT_COMPANY_SETTINGS, ...stored };
  return {
    monthlyQuota: s.monthlyQuota,
    anonymityFloor: s.anonymityFloor,
    timeZone: s.timeZone,
    defaultCountry: s.defaultCountry as CountryCode,
    holidayCountry: typeof s.holidayCountry === 'string' ? (s.holidayCountry as CountryCode) : null,
    locale: LOCALES.includes(s.locale as Locale) ? (s.locale as Locale) : null,
    mailFrom: typeof s.mailFrom === 'string' ? s.mailFrom : null,
    brandColor: typeof s.brandColor === 'string' && BRAND_COLOR_RE.test(s.brandColor) ? s.brandColor.toLowerCase() : null,
    logo: typeof s.logo === 'string' ? s.logo : null,
  };
}

/** What a settings change may name: every setting but the logo, which its own upload sets (brand.ts). */
export type SettingsPatch = Partial<Omit<Settings, 'logo'>>;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const MAIL_FROM_RE = /^[^<>\r\n]{0,100}<[^\s<>@]{1,64}@[^\s<>@]{1,253}>$|^[^\s<>@]{1,64}@[^\s<>@]{1,253}$/;

function patchErrors(patch: SettingsPatch): FieldError[] {
  const errors: FieldError[] = [];
  const bad = (path: string, message: string) => errors.push({ path, code: 'invalid_value', message });
  const count = (v: number | undefined, max: number) => v !== undefined && (!Number.isSafeInteger(v) || v < 0 || v > max);
  if (count(patch.monthlyQuota, 100_000_000)) bad('monthlyQuota', 'must be a whole number from 0 to 100,000,000');
  if (count(patch.anonymityFloor, 1000)) bad('anonymityFloor', 'must be a whole number from 0 to 1,000');
  if (patch.timeZone !== undefined && !isTimeZone(patch.timeZone)) bad('timeZone', 'must be an IANA time zone, e.g. America/Sao_Paulo');
  if (patch.defaultCountry !== undefined && !getCountries().includes(patch.defaultCountry)) bad('defaultCountry', 'must be a two-letter country code, e.g. BR');
  if (patch.holidayCountry !== undefined && patch.holidayCountry !== null && !getCountries().includes(patch.holidayCountry)) bad('holidayCountry', 'must be a two-letter country code, e.g. BR, or null');
  if (patch.locale !== undefined && patch.locale !== null && !LOCALES.includes(patch.locale)) bad('locale', `must be one of ${LOCALES.join(', ')}, or null`);
  if (patch.mailFrom !== undefined && patch.mailFrom !== null && !MAIL_FROM_RE.test(patch.mailFrom)) bad('mailFrom', 'must be "Name <address>" or an address');
  errors.push(...brandColorErrors(patch.brandColor));
  return errors;
}

/** Every fault of a rename and settings change, the consumers' own included, one per field. */
function companyUpdateErrors(input: { name?: string; patch: SettingsPatch }, consumers: readonly SettingsConsumer[]): FieldError[] {
  const name = input.name?.trim();
  const errors = [...(name === undefined ? [] : companyNameErrors(name)), ...patchErrors(input.patch)];
  for (const consumer of consumers) {
    const refused = new Set(errors.map((error) => error.path));
    errors.push(...(consumer.patchErrors?.(input.patch) ?? []).filter((error) => !refused.has(error.path)));
  }
  return errors;
}

/** A company after an update, and what the update changed (name and settings; none is secret). */
export interface CompanyUpdate {
  name: string;
  settings: Settings;
  changes: Record<string, FieldChange>;
}

/**
 * Renames the company (when `name` is given) and merges the given settings into its own, every
 * fault reported at once. The merge is one jsonb `||`, so concurrent edits of other keys survive;
 * the row is locked first so the changes are read against the version replaced. The settings
 * consumers (the context's) follow the change in the same transaction.
 */
export async function updateCompanySettings(
  db: DbOrTx,
  deps: { clock: Clock; settingsConsumers: readonly SettingsConsumer[] },
  input: { companyId: string; name?: string; patch: SettingsPatch },
): Promise<CompanyUpdate> {
  const { companyId, patch } = input;
  const name = input.name?.trim();
  const errors = companyUpdateErrors({ name, patch }, deps.settingsConsumers);
  if (errors.length > 0) throw validationError(errors);
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ name: companies.name, settings: companies.settings }).from(companies).where(eq(companies.id, companyId)).for('update');
    if (!before) throw new ApiError('NOT_FOUND', 'Company not found.');
    const [row] = await tx
      .update(companies)
      .set({ ...(name === undefined ? {} : { name }), settings: sql`${companies.settings} || ${JSON.stringify(given)}::jsonb`, updatedAt: deps.clock.now() })
      .where(eq(companies.id, companyId))
      .returning({ name: companies.name, settings: companies.settings });
    const settings = companySettings(row.settings);
    const changes = changedFields({ name: before.name, ...companySettings(before.settings) }, { name: row.name, ...settings });
    const update = { name: row.name, settings, changes };
    for (const consumer of deps.settingsConsumers) await consumer.onSettingsChanged(tx, deps, { companyId, update });
    return update;
  });
}

export async function readCompanySettings(db: DbOrTx, _deps: NoDeps, input: { companyId: string }): Promise<Settings> {
  const { companyId } = input;
  const [row] = await db.select({ settings: companies.settings }).from(companies).where(eq(companies.id, companyId));
  return companySettings(row?.settings ?? {});
}
