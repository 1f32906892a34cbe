import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import { isVisible } from '../forms/index.js';
import type { EmitDeps } from '../events/index.js';
import type { ResponseHandler, StoredResponse } from '../responses/index.js';
import { emitCaseEvents, type CaseRow } from './case-event.js';
import type { EffectivenessCheck, FlowStep } from './flow-definition.js';
import { treatmentFlows, treatmentHistory, treatments } from './table.js';
import { loadWorkingCalendar, workingDeadline } from './working-days.js';

export interface OpenCaseInput {
  companyId: string;
  formId: string;
  formName: string;
  flowId: string | null;
  flowKey: string;
  steps: FlowStep[];
  /** null on a chained case (its response is on the earlier case). */
  responseId: string | null;
  chainedFromId?: string | null;
  orgUnitId: string | null;
  orgPath: string | null;
  respondentKey: string | null;
  effectivenessCheck: EffectivenessCheck | null;
}

/** How an effectiveness check finds the respondent's later responses: the external id, else the e-mail. */
export function respondentKey(respondent: StoredResponse['respondent']): string | null {
  if (respondent?.externalId) return `externalId:${respondent.externalId}`;
  if (respondent?.email) return `email:${respondent.email}`;
  return null;
}

/**
 * Opens a case in the caller's transaction and emits treatment.opened. The number comes from the
 * company's counter row, locked first and bumped in the INSERT's statement: a rolled-back opening
 * rolls its number back too (no gaps), and concurrent openings queue on the row (no duplicates).
 * The existence test runs after the lock, so a response processed twice never opens (or numbers)
 * a second case for the same flow. Returns null when that case already exists.
 */
export async function openCase(tx: Tx, deps: EmitDeps, input: OpenCaseInput): Promise<CaseRow | null> {
  await tx.execute(sql`INSERT INTO treatment_counters (company_id, last_number) VALUES (${input.companyId}, 0)
    ON CONFLICT (company_id) DO UPDATE SET last_number = treatment_counters.last_number`);
  const now = deps.clock.now();
  const calendar = await loadWorkingCalendar(tx, input.companyId);
  const dueAt = workingDeadline(calendar, now, input.steps[0].dueInWorkingDays);
  const id = deps.newId();
  const result = await tx.execute<{ id: string }>(sql`WITH n AS (
      UPDATE treatment_counters SET last_number = last_number + 1
      WHERE company_id = ${input.companyId}
        AND NOT EXISTS (SELECT 1 FROM treatments WHERE response_id = ${input.responseId} AND flow_key = ${input.flowKey})
      RETURNING last_number)
    INSERT INTO treatments (id, company_id, number, form_id, flow_id, flow_key, response_id, chained_from_id, steps, status,
      step_index, step_started_at, step_due_at, org_unit_id, org_path, respondent_key, effectiveness_check, opened_at)
    SELECT ${id}, ${input.companyId}, n.last_number, ${input.formId}, ${input.flowId}, ${input.flowKey}, ${input.responseId},
      ${input.chainedFromId ?? null}, ${JSON.stringify(input.steps)}::jsonb, 'open', 0, ${now.toISOString()}::timestamptz,
      ${dueAt.toISOString()}::timestamptz, ${input.orgUnitId}, ${input.orgPath}, ${input.respondentKey},
      ${input.effectivenessCheck && JSON.stringify(input.effectivenessCheck)}::jsonb, ${now.toISOString()}::timestamptz
    FROM n RETURNING id`);
  if (result.rows.length === 0) return null;
  const [row] = await tx.select().from(treatments).where(eq(treatments.id, id));
  await tx.insert(treatmentHistory).values({ companyId: input.companyId, treatmentId: id, action: 'opened', stepIndex: 0, at: now });
  await emitCaseEvents(tx, deps, 'treatment.opened', [{ row, formName: input.formName }], now);
  return row;
}

/** Opens one case per flow of the form whose `when` the response's answers satisfy. */
export async function openCasesForResponse(tx: Tx, deps: EmitDeps, response: StoredResponse): Promise<CaseRow[]> {
  const flows = await tx
    .select({ id: treatmentFlows.id, key: treatmentFlows.key, definition: treatmentFlows.definition, formName: forms.name })
    .from(treatmentFlows)
    .innerJoin(forms, eq(forms.id, treatmentFlows.formId))
    .where(eq(treatmentFlows.formId, response.formId));
  const opened: CaseRow[] = [];
  for (const flow of flows) {
    if (!isVisible(flow.definition.when, response.answers)) continue;
    const row = await openCase(tx, deps, {
      companyId: response.companyId,
      formId: response.formId,
      formName: flow.formName,
      flowId: flow.id,
      flowKey: flow.key,
      steps: flow.definition.steps,
      responseId: response.id,
      orgUnitId: response.orgUnitId,
      orgPath: response.orgPath,
      respondentKey: respondentKey(response.respondent),
      effectivenessCheck: flow.definition.effectivenessCheck ?? null,
    });
    if (row) opened.push(row);
  }
  return opened;
}

export const openCasesConsumer: ResponseHandler = {
  async onResponse(tx, deps, response) {
    await openCasesForResponse(tx, deps, response);
  },
};
