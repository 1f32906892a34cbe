import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/database.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import type { EmitDeps } from '../events/index.js';
import { EARLY_OUTCOMES, type TreatmentOutcome } from '../events/index.js';
import { emitCaseEvents, type CaseRow } from './case-event.js';
import { lockCase } from './lock-case.js';
import { treatmentHistory, treatments } from './table.js';
import { loadWorkingCalendar, workingDeadline } from './working-days.js';

export const MAX_REASON_LENGTH = 2000;

/**
 * A case resolved with an effectiveness check and a known respondent arms it: a date in working
 * days from now, or the form whose next response of the respondent decides it.
 */
async function armedCheck(tx: Tx, row: CaseRow, outcome: TreatmentOutcome, now: Date) {
  const check = row.effectivenessCheck;
  if (outcome !== 'resolved' || !check || !row.respondentKey) return {};
  if (check.kind === 'response') return { checkFormId: check.formId };
  return { checkDueAt: workingDeadline(await loadWorkingCalendar(tx, row.companyId), now, check.afterWorkingDays) };
}

/** Closes a locked open case, records it and emits treatment.closed with outcome and reason. */
export async function closeLockedCase(
  tx: Tx,
  deps: EmitDeps,
  input: { locked: { row: CaseRow; formName: string }; close: { outcome: TreatmentOutcome; reason: string | null } },
): Promise<CaseRow> {
  const { locked, close } = input;
  const now = deps.clock.now();
  const [row] = await tx
    .update(treatments)
    .set({ status: 'closed', stepDueAt: null, outcome: close.outcome, reason: close.reason, closedAt: now, ...(await armedCheck(tx, locked.row, close.outcome, now)) })
    .where(eq(treatments.id, locked.row.id))
    .returning();
  await tx.insert(treatmentHistory).values({
    companyId: row.companyId, treatmentId: row.id, action: 'closed', stepIndex: row.stepIndex, outcome: close.outcome, reason: close.reason, at: now,
  });
  await emitCaseEvents(tx, deps, 'treatment.closed', [{ row, formName: locked.formName }], now);
  return row;
}

function closeErrors(outcome: string, reason: string | null | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (!(EARLY_OUTCOMES as readonly string[]).includes(outcome)) {
    const message = outcome === 'resolved' ? 'resolved is set by fulfilling the last step (treatment advance)' : `must be one of ${EARLY_OUTCOMES.join(', ')}`;
    errors.push({ path: 'outcome', code: 'invalid_value', message });
  }
  if (reason === undefined || reason === null || reason.trim() === '') {
    errors.push({ path: 'reason', code: 'required', message: 'closing before the last step (and outcome other) needs a reason' });
  } else if (reason.length > MAX_REASON_LENGTH) {
    errors.push({ path: 'reason', code: 'too_long', message: `must be at most ${MAX_REASON_LENGTH} characters` });
  }
  return errors;
}

/** Closes an open case early: an outcome other than resolved, and always a reason. */
export async function closeCase(db: DbOrTx, deps: EmitDeps, input: { companyId: string; id: string; outcome: string; reason?: string | null }): Promise<CaseRow> {
  const errors = closeErrors(input.outcome, input.reason);
  if (errors.length > 0) throw validationError(errors, 'The case cannot be closed so.');
  return db.transaction(async (tx) => {
    const locked = await lockCase(tx, input.companyId, input.id, 'open');
    return closeLockedCase(tx, deps, { locked, close: { outcome: input.outcome as TreatmentOutcome, reason: input.reason!.trim() } });
  });
}
