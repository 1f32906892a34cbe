import { eq } from 'drizzle-orm';
import { companies } from '../platform/db/schema.js';
import type { WorkerContext } from '../platform/jobs/define-task.js';
import { createCompany, findCompanyBySlug, seedDemoBrand } from '../features/companies/index.js';
import { createKey } from '../features/keys/index.js';
import { SCOPES } from '../features/keys/index.js';
import { seedFormsAndEntities } from './seed-forms.js';
import { countDemoData, describeDemoProgress } from './describe-demo-progress.js';
import { seedDemoResponses } from '../features/responses/index.js';
import { seedDemoRoster } from '../features/rosters/index.js';
import { seedDemoInvites } from '../features/invites/index.js';
import { seedDemoMail } from '../features/messaging/index.js';
import type { DemoLinks } from '../features/respondent/index.js';
import { seedDemoGoals } from '../features/goals/index.js';
import { seedDemoRollups } from '../features/statistics/index.js';
import { seedDemoTreatments } from '../features/treatments/index.js';
import { seedDemoReminders } from '../features/reminders/index.js';

export const DEMO_SLUG = 'demo';

export interface DemoCompany {
  id: string;
  name: string;
  slug: string;
}

/** A feature's contribution to the demo; runs once, when the demo company is first created. */
export type DemoSeeder = (ctx: WorkerContext, company: DemoCompany) => Promise<void>;

/** Features add their seeders here so a newcomer sees every capability on the first start. */
export const demoSeeders: DemoSeeder[] = [seedDemoBrand, seedFormsAndEntities, seedDemoResponses, seedDemoRollups, seedDemoRoster, seedDemoInvites, seedDemoMail, seedDemoReminders, seedDemoTreatments, seedDemoGoals];

export type DemoResult = { created: true; company: DemoCompany; token: string } | { created: false; company: DemoCompany };

/**
 * Creates the demo company, an all-scopes key and every feature's demo data, once. Seeding takes
 * tens of seconds: `onProgress` hears a line before it starts and one per seeder with what it made.
 */
export async function ensureDemo(ctx: WorkerContext, options: { onProgress?: (line: string) => void } = {}): Promise<DemoResult> {
  const existing = await findCompanyBySlug(ctx.db, ctx, { slug: DEMO_SLUG });
  if (existing) return { created: false, company: { id: existing.id, name: existing.name, slug: existing.slug } };
  // A Brazilian school: treatment deadlines skip Brazil's public holidays (off by default for other companies).
  const row = await createCompany(ctx.db, ctx, { name: 'Demo School', slug: DEMO_SLUG, settings: { holidayCountry: 'BR' } });
  const company = { id: row.id, name: row.name, slug: row.slug };
  const { token } = await createKey(ctx.db, ctx, { companyId: company.id, name: 'demo (all scopes)', scopes: [...SCOPES], rateLimitPerMin: 600 });
  const { onProgress = () => undefined } = options;
  onProgress(`demo: creating company "${DEMO_SLUG}" and its data (first start only; about a minute)...`);
  try {
    let counts = await countDemoData(ctx.db, ctx, { companyId: company.id });
    for (const seed of demoSeeders) {
      await seed(ctx, company);
      const after = await countDemoData(ctx.db, ctx, { companyId: company.id });
      const made = describeDemoProgress(counts, after);
      if (made) onProgress(`demo: ${made}`);
      counts = after;
    }
  } catch (err) {
    // A half-seeded demo would be reused as if complete on the next start: remove it so a retry starts clean.
    await ctx.db.delete(companies).where(eq(companies.id, company.id));
    throw err;
  }
  return { created: true, company, token };
}

/** What the operator reads on start: the key once, then how to mint another. */
export function demoBanner(result: DemoResult, urls: { api: string; docs: string }, links?: DemoLinks): string {
  const answer = links
    ? [`  Answer a form:  ${links.publicLink}  (public link)`, ...(links.personalLink ? [`                  ${links.personalLink}  (personal link of an invite)`] : [])]
    : [];
  if (!result.created) {
    return [
      `Demo company "${result.company.slug}" is ready (its first key was printed on the first start and is not stored).`,
      `Mint a new key:  npx quorum key create --company ${result.company.slug} --name "my key" --scopes all`,
      `API:  ${urls.api}    Docs:  ${urls.docs}    Dev mailbox:  ${new URL(urls.api).origin}/dev/mail`,
      `For the README's tour:  export BASE=${new URL(urls.api).origin} KEY=<the new key>`,
      ...answer.map((line) => line.slice(2)),
    ].join('\n');
  }
  return [
    '',
    '  Quorum is running with demo data.',
    '',
    `  API key (shown once, store it now): ${result.token}`,
    `  API base URL:  ${urls.api}`,
    `  Docs:          ${urls.docs}`,
    `  Dev mailbox:   ${new URL(urls.api).origin}/dev/mail  (e-mail sent without SMTP_URL; or: npx quorum mail list)`,
    ...answer,
    '',
    '  Try it:',
    `    curl -H "Authorization: Bearer ${result.token}" ${urls.api}/me`,
    '',
    "  The README's tour starts from these two variables; paste them into your shell:",
    `    export BASE=${new URL(urls.api).origin} KEY=${result.token}`,
    '',
  ].join('\n');
}
