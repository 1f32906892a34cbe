import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { quotaPeriod, quotaStatus, type QuotaStatus } from './quota.js';
import { companySettings, type Settings } from './company-settings.js';

export interface CompanyView {
  company: { id: string; name: string; slug: string; createdAt: string };
  settings: Settings;
  quota: QuotaStatus;
}

/** The company, its settings with defaults, and this month's quota consumption. */
export async function showCompany(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string }): Promise<CompanyView> {
  const { companyId } = input;
  const [row] = await db.select().from(companies).where(eq(companies.id, companyId));
  const settings = companySettings(row.settings);
  return {
    company: { id: row.id, name: row.name, slug: row.slug, createdAt: row.createdAt.toISOString() },
    settings,
    quota: await quotaStatus(db, deps, { companyId, limit: settings.monthlyQuota, period: quotaPeriod(deps.clock.now()) }),
  };
}
