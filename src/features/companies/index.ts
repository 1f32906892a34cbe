/** The companies feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export {
  LOCALES, companySettings, readCompanySettings, type Locale, type Settings, type SettingsPatch, type CompanyUpdate,
} from './company-settings.js';
export { type SettingsConsumer } from './settings-consumer.js';
export { createCompany, findCompanyBySlug } from './create-company.js';
export { quotaExceeded, quotaPeriod, quotaSettlement, quotaStatus, reservationSql, settleQuota, type QuotaStatus } from './quota.js';
export { BRAND_COLOR_RE, brandColorErrors, contrastWithWhite, logoPath, readCompanyLogo, removeCompanyLogo, setCompanyLogo, MAX_LOGO_BYTES } from './brand.js';
export { seedDemoBrand, DEMO_BRAND_COLOR } from './seed-demo-brand.js';
