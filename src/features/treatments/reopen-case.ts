import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { CaseRow } from './case-event.js';
import { lockCase } from './lock-case.js';
import { treatmentHistory, treatments } from './table.js';
import { loadWorkingCalendar, workingDeadline } from './working-days.js';

/**
 * Reopens a closed case on the step it was closed on, counting that step's working days anew:
 * outcome and reason are cleared, history records it, and no event is emitted (spec).
 */
export async function reopenCase(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; id: string }): Promise<CaseRow> {
  return db.transaction(async (tx) => {
    const { row } = await lockCase(tx, input.companyId, input.id, 'closed');
    const now = deps.clock.now();
    const calendar = await loadWorkingCalendar(tx, row.companyId);
    const [updated] = await tx
      .update(treatments)
      .set({
        status: 'open', outcome: null, reason: null, closedAt: null, stepStartedAt: now, overdueNotifiedAt: null, checkDueAt: null, checkFormId: null, checkDoneAt: null,
        stepDueAt: workingDeadline(calendar, now, row.steps[row.stepIndex].dueInWorkingDays),
      })
      .where(eq(treatments.id, row.id))
      .returning();
    await tx.insert(treatmentHistory).values({ companyId: row.companyId, treatmentId: row.id, action: 'reopened', stepIndex: row.stepIndex, at: now });
    return updated;
  });
}
