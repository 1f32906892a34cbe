import { and, eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { findGoalRules, type GoalRule } from './goal-rule.js';
import { formAlertRules } from './table.js';

/**
 * Re-arms the company's rule: it fires again at the next crossing of its goal (the count going from
 * below the goal to at least the goal). Resetting an armed rule changes nothing. The last crossing
 * stays on record until the next one replaces it.
 */
export async function resetGoalRule(db: DbOrTx, _deps: NoDeps, input: { companyId: string; ruleId: string }): Promise<GoalRule> {
  const { companyId, ruleId } = input;
  if (!isUuid(ruleId)) throw notFound('Alert rule');
  const where = and(eq(formAlertRules.companyId, companyId), eq(formAlertRules.id, ruleId));
  const updated = await db.update(formAlertRules).set({ armed: true }).where(where).returning({ id: formAlertRules.id });
  if (updated.length === 0) throw notFound('Alert rule');
  const [rule] = await findGoalRules(db, companyId, eq(formAlertRules.id, ruleId));
  return rule;
}
