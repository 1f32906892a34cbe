import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { notFound, validationError } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { findFormByIdOrSlug } from '../forms/index.js';
import { findGoalRules, type GoalRule } from './goal-rule.js';
import { formAlertRules } from './table.js';

/** forms.response_count and the goal column are 32-bit integers. */
export const MAX_GOAL = 2_147_483_647;

export interface AddGoalRuleResult {
  rule: GoalRule;
  /** The form's count when the rule was added: at or past the goal, the rule waits for the next crossing. */
  responseCount: number;
}

/** A new armed rule on the company's form (named by id or slug); another company's form is NOT_FOUND. */
export async function addGoalRule(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string } & { form: string; goal: number }): Promise<AddGoalRuleResult> {
  const { companyId } = input;
  if (!Number.isSafeInteger(input.goal) || input.goal < 1 || input.goal > MAX_GOAL) {
    throw validationError([{ path: 'goal', code: input.goal > MAX_GOAL ? 'too_large' : 'invalid_value', message: `must be a whole number from 1 to ${MAX_GOAL}` }]);
  }
  const form = await findFormByIdOrSlug(db, deps, { companyId, idOrSlug: input.form });
  if (!form) throw notFound('Form');
  const id = deps.newId();
  await db.insert(formAlertRules).values({ id, companyId, formId: form.id, goal: input.goal, armed: true, createdAt: deps.clock.now() });
  const [rule] = await findGoalRules(db, companyId, eq(formAlertRules.id, id));
  return { rule, responseCount: form.responseCount };
}
