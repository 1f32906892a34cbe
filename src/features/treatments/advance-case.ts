import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { EmitDeps } from '../events/index.js';
import type { CaseRow } from './case-event.js';
import { closeLockedCase } from './close-case.js';
import { lockCase } from './lock-case.js';
import { treatmentHistory, treatments } from './table.js';
import { loadWorkingCalendar, workingDeadline } from './working-days.js';

/**
 * Fulfils the current step of an open case: the next step starts counting now (its own overdue
 * notice to come), and fulfilling the last step closes the case with outcome `resolved`.
 */
export async function advanceCase(db: DbOrTx, deps: EmitDeps, input: { companyId: string; id: string }): Promise<CaseRow> {
  return db.transaction(async (tx) => {
    const { row, formName } = await lockCase(tx, input.companyId, input.id, 'open');
    const now = deps.clock.now();
    const next = row.stepIndex + 1;
    if (next >= row.steps.length) {
      await tx.insert(treatmentHistory).values({ companyId: row.companyId, treatmentId: row.id, action: 'advanced', stepIndex: row.stepIndex, at: now });
      return closeLockedCase(tx, deps, { locked: { row, formName }, close: { outcome: 'resolved', reason: null } });
    }
    const calendar = await loadWorkingCalendar(tx, row.companyId);
    const [updated] = await tx
      .update(treatments)
      .set({ stepIndex: next, stepStartedAt: now, stepDueAt: workingDeadline(calendar, now, row.steps[next].dueInWorkingDays), overdueNotifiedAt: null })
      .where(eq(treatments.id, row.id))
      .returning();
    await tx.insert(treatmentHistory).values({ companyId: row.companyId, treatmentId: row.id, action: 'advanced', stepIndex: next, at: now });
    return updated;
  });
}
