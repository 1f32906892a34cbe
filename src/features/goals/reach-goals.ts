import { and, eq, sql } from 'drizzle-orm';
import { emitEvents } from '../events/index.js';
import { goalReachedData } from '../events/index.js';
import { forms } from '../forms/index.js';
import type { ResponseHandler } from '../responses/index.js';

/**
 * Decides, in the response's transaction, which armed rules of the form this response crossed.
 * The count trigger (migration 0100) has just added the response to forms.response_count and holds
 * the form row's lock until commit, so the count read here is this response's own place in the
 * form: it went from count - 1 to count, and a rule is crossed when goal = count (so the count at
 * the crossing is the goal). The conditional UPDATE disarms and reports in one statement (armed is
 * re-checked on the latest row version), so however many submissions race, one transaction
 * crosses a goal and emits form.goal_reached once. A rule whose goal the count had already passed
 * when it was added waits for the next crossing (the count falling below the goal through a
 * deletion, then reaching it again).
 *
 * The count is a scalar subquery, not a join: with the join, 16 concurrent submissions to one
 * form ran at half the rate (bench/goals.ts); this probe costs about a tenth.
 */
export const reachGoals: ResponseHandler = {
  async onResponse(tx, deps, response) {
    const { companyId, formId } = response;
    const { rows } = await tx.execute<{ id: string; goal: number }>(sql`
      UPDATE form_alert_rules
         SET armed = false, reached_at = ${deps.clock.now()}, reached_count = goal
       WHERE company_id = ${companyId} AND form_id = ${formId} AND armed
         AND goal = (SELECT response_count FROM forms WHERE company_id = ${companyId} AND id = ${formId})
      RETURNING id, goal`);
    if (rows.length === 0) return;
    const [form] = await tx.select({ name: forms.name }).from(forms).where(and(eq(forms.companyId, companyId), eq(forms.id, formId)));
    const data = rows.map((rule) => goalReachedData({ formId, formName: form.name, responseCount: rule.goal, goal: rule.goal, alertRuleId: rule.id }));
    await emitEvents(tx, deps, { companyId, type: 'form.goal_reached', data });
  },
};
