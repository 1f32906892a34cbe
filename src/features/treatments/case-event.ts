import type { Tx } from '../../db/database.js';
import { emitEvents, type EmitDeps } from '../events/emit-event.js';
import { treatmentEventData, type TreatmentEventType } from '../events/catalog.js';
import type { treatments } from './table.js';

export type CaseRow = typeof treatments.$inferSelect;

/** The event data of a case as it stands (never answers: a case holds none). */
export function caseEventData(type: TreatmentEventType, row: CaseRow, formName: string, at: Date) {
  const step = row.steps[Math.min(row.stepIndex, row.steps.length - 1)];
  return treatmentEventData(type, {
    treatmentId: row.id,
    number: row.number,
    formId: row.formId,
    formName,
    responseId: row.responseId,
    stepName: step?.name ?? null,
    stepIndex: row.stepIndex,
    dueAt: row.status === 'open' ? row.stepDueAt : null,
    orgUnitId: row.orgUnitId,
    orgPath: row.orgPath,
    at,
    outcome: row.outcome,
    reason: row.reason,
  });
}

/** One treatment.* event per case, in the caller's transaction, grouped by company. */
export async function emitCaseEvents(tx: Tx, deps: EmitDeps, type: TreatmentEventType, cases: { row: CaseRow; formName: string }[], at: Date): Promise<void> {
  const byCompany = new Map<string, ReturnType<typeof caseEventData>[]>();
  for (const { row, formName } of cases) {
    const list = byCompany.get(row.companyId) ?? [];
    list.push(caseEventData(type, row, formName, at));
    byCompany.set(row.companyId, list);
  }
  for (const [companyId, data] of byCompany) await emitEvents(tx, deps, companyId, type, data);
}
