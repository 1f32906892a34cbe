import { and, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import { ApiError, validationError } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import type { CaseRow } from './case-event.js';
import { treatments, type TreatmentStatus } from './table.js';

/** The company's case with its form's name (for events and views); another company's case matches nothing. */
export function selectCase(db: DbOrTx, companyId: string, id: string) {
  return db
    .select({ row: treatments, formName: forms.name })
    .from(treatments)
    .innerJoin(forms, eq(forms.id, treatments.formId))
    .where(and(eq(treatments.companyId, companyId), eq(treatments.id, id)));
}

export const caseNotFound = () => new ApiError('NOT_FOUND', 'No such case in this company.');

/**
 * The company's case, locked for a transition in the caller's transaction (another company's case
 * is NOT_FOUND), with its form's name for the event; refused unless it is in `status`.
 */
export async function lockCase(tx: Tx, companyId: string, id: string, status: TreatmentStatus): Promise<{ row: CaseRow; formName: string }> {
  const [found] = isUuid(id) ? await selectCase(tx, companyId, id).for('update', { of: treatments }) : [];
  if (!found) throw caseNotFound();
  if (found.row.status !== status) {
    throw validationError([{ path: 'status', code: 'invalid_value', message: `The case is ${found.row.status}; this needs an ${status === 'open' ? 'open' : 'closed'} case.` }]);
  }
  return found;
}
