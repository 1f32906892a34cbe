import { asc, eq } from 'drizzle-orm';
import { forms } from '../../platform/db/schema.js';
import { noDeps } from '../../lib/service.js';
import type { DemoSeeder } from '../../demo/index.js';
import { rebuildRollupsOfForm } from './rebuild-rollups.js';

/**
 * The demo's rollups, built once per form from the responses seedDemoResponses recorded without
 * the statistics consumer: one rebuild of a form's days, where a pending row per response would
 * leave thousands for the fold sweep.
 */
export const seedDemoRollups: DemoSeeder = async (ctx, company) => {
  const demoForms = await ctx.db.select().from(forms).where(eq(forms.companyId, company.id)).orderBy(asc(forms.slug));
  for (const form of demoForms) {
    await ctx.db.transaction((tx) => rebuildRollupsOfForm(tx, noDeps, { companyId: company.id, formId: form.id, form: form.content }));
  }
};
