import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import { emitEvents, type EmitDeps } from '../events/index.js';
import { treatmentEventData, type TreatmentEventType } from '../events/index.js';
import type { treatments } from './table.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

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
  for (const [companyId, data] of byCompany) await emitEvents(tx, deps, { companyId, type, data });
}

/**
 * caseEventData in SQL, for a case row `c` (treatments columns) and its form `f`, at `at`: the same
 * fields built in the statement that changes the cases (the overdue sweep), so the rows never
 * travel to Node and back. cases.test.ts checks every field of the result against the spec.
 */
export function caseEventDataSql(type: TreatmentEventType, at: Date): SQL {
  const closing = type === 'treatment.closed';
  return sql`jsonb_build_object(
    'treatmentId', c.id, 'number', c.number, 'formId', c.form_id, 'formName', f.name, 'responseId', c.response_id,
    'status', ${closing ? 'closed' : 'open'}::text,
    'stepName', c.steps -> LEAST(c.step_index, jsonb_array_length(c.steps) - 1) -> 'name', 'stepIndex', c.step_index,
    'dueAt', CASE WHEN c.status = 'open' THEN ${isoTimestamp(sql`c.step_due_at`)} END,
    'orgUnitId', c.org_unit_id, 'orgPath', c.org_path, 'at', ${at.toISOString()}::text,
    'outcome', ${closing ? sql`c.outcome` : sql`NULL::text`}, 'reason', ${closing ? sql`c.reason` : sql`NULL::text`})`;
}
