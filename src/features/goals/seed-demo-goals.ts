import type { DemoSeeder } from '../../demo/index.js';
import { findFormBySlug } from '../forms/index.js';
import { addGoalRule } from './add-goal-rule.js';

/** The demo's public forms, each watched by a rule one response away from its goal. */
export const DEMO_GOAL_FORMS = ['term-evaluation', 'library-services'];

/**
 * Runs after the demo responses: the newcomer's first answer to either form crosses its goal, so the
 * tour sees form.goal_reached beside response.created (GET /v1/events, a webhook), then
 * `quorum form goal list` shows the rule disarmed and `goal reset` re-arms it.
 */
export const seedDemoGoals: DemoSeeder = async (ctx, company) => {
  for (const slug of DEMO_GOAL_FORMS) {
    const form = await findFormBySlug(ctx.db, ctx, { companyId: company.id, slug });
    if (!form) throw new Error(`the demo form ${slug} is missing (the forms seeder runs first)`);
    await addGoalRule(ctx.db, ctx, { companyId: company.id, form: form.id, goal: form.responseCount + 1 });
  }
};
