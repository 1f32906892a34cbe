/** The companies feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export {
  LOCALES, companySettings, readCompanySettings, type Locale, type Settings, type SettingsPatch, type CompanyUpdate,
} from './company-settings.js';
export { type SettingsConsumer } from './settings-consumer.js';
export { createCompany, findCompanyBySlug } from './create-company.js';
export { quotaExceeded, quotaPeriod, quotaSettlement, quotaStatus, reservationSql, settleQuota, type QuotaStatus } from './quota.js';
export { BRAND_COLOR_RE, logoPath, readCompanyLogo, setCompanyLogo } from './brand.js';
export { seedDemoBrand } from './seed-demo-brand.js';
