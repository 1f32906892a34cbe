import { ManualClock } from '../../lib/clock.js';
import { idGeneratorFor } from '../../lib/ids.js';
import type { DemoSeeder } from '../../demo/index.js';
import { findFormBySlug } from '../forms/index.js';
import { recordResponse } from '../responses/index.js';
import { advanceCase } from './advance-case.js';
import { closeCase } from './close-case.js';
import { addFlow } from './flows.js';
import { sweepOverdue } from './sweep-overdue.js';

const DAY_MS = 86_400_000;

/** The demo's flow: a library detractor (NPS ≤ 6) is called back, then told what changed. */
export const DEMO_FLOW = {
  key: 'detractor-callback',
  name: 'Detractor call-back',
  when: { question: 'recommend', lte: 6 },
  steps: [
    { name: 'Call the reader', responsible: 'library coordinator', dueInWorkingDays: 2 },
    { name: 'Fix and report back', responsible: 'head.librarian@demo.school', dueInWorkingDays: 5 },
  ],
  effectivenessCheck: { afterWorkingDays: 10 },
};

/** Readers who answered the library survey over the last three weeks: [days ago, NPS]. */
const READERS: [number, number][] = [[21, 2], [19, 8], [17, 4], [15, 0], [12, 6], [9, 3], [6, 9], [4, 5], [1, 1]];

/**
 * The flow on the library survey, and cases in every state: responses recorded through the
 * service (cases open as in production), some resolved or closed early, the rest left open so
 * the overdue sweep flags the late ones.
 */
export const seedDemoTreatments: DemoSeeder = async (ctx, company) => {
  const form = (await findFormBySlug(ctx.db, ctx, { companyId: company.id, slug: 'library-services' }))!;
  await addFlow(ctx.db, ctx, { companyId: company.id, formIdOrSlug: form.id, file: DEMO_FLOW });
  const [frequency, recommend] = form.content.sections.flatMap((s) => s.questions);
  const now = ctx.clock.now().getTime();
  const clock = new ManualClock(now);
  const deps = { ...ctx, clock, newId: idGeneratorFor(clock) };
  for (const [index, [daysAgo, score]] of READERS.entries()) {
    clock.set(now - daysAgo * DAY_MS);
    await ctx.db.transaction((tx) =>
      recordResponse(tx, deps, {
        form,
        answers: { [frequency.id]: frequency.options![index % 3].id, [recommend.id]: score },
        respondent: { name: `Reader ${index + 1}`, externalId: `R-${100 + index}` },
      }),
    );
  }
  const { rows } = await ctx.pool.query<{ id: string }>('SELECT id FROM treatments WHERE company_id = $1 ORDER BY number', [company.id]);
  const [resolved, duplicate, advanced] = rows.map((r) => r.id);
  clock.set(now - 14 * DAY_MS);
  await advanceCase(ctx.db, deps, { companyId: company.id, id: resolved });
  await advanceCase(ctx.db, deps, { companyId: company.id, id: resolved });
  await closeCase(ctx.db, deps, { companyId: company.id, id: duplicate, outcome: 'duplicate', reason: 'Same reader as case #1' });
  clock.set(now - 3 * DAY_MS);
  await advanceCase(ctx.db, deps, { companyId: company.id, id: advanced });
  await sweepOverdue(ctx.db, ctx);
};
