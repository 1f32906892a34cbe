import { sql } from 'drizzle-orm';
import { emitEvents } from '../events/emit-event.js';
import { goalReachedData } from '../events/families/form.js';
import type { ResponseConsumer } from '../responses/response-consumer.js';

/**
 * Decides, in the response's transaction, which armed rules of the form this response crossed.
 * The count trigger (migration 0100) has just added the response to forms.response_count and holds
 * the form row's lock until commit, so the count read here is this response's own place in the
 * form: it went from count - 1 to count, and a rule is crossed when goal = count. The conditional
 * UPDATE disarms and reports in one statement (armed is re-checked on the latest row version), so
 * however many submissions race, one transaction crosses a goal and emits form.goal_reached once.
 * A rule whose goal the count had already passed when it was added waits for the next crossing
 * (the count falling below the goal through a deletion, then reaching it again).
 */
export const reachGoals: ResponseConsumer = {
  name: 'goals',
  async onResponse(tx, deps, response) {
    const { rows } = await tx.execute<{ id: string; goal: number; responseCount: number; formName: string }>(sql`
      UPDATE form_alert_rules r
         SET armed = false, reached_at = ${deps.clock.now()}, reached_count = f.response_count
        FROM forms f
       WHERE f.company_id = ${response.companyId} AND f.id = ${response.formId}
         AND r.company_id = f.company_id AND r.form_id = f.id AND r.armed AND r.goal = f.response_count
      RETURNING r.id, r.goal, f.response_count AS "responseCount", f.name AS "formName"`);
    if (rows.length === 0) return;
    const data = rows.map((rule) =>
      goalReachedData({ formId: response.formId, formName: rule.formName, responseCount: rule.responseCount, goal: rule.goal, alertRuleId: rule.id }),
    );
    await emitEvents(tx, deps, response.companyId, 'form.goal_reached', data);
  },
};
