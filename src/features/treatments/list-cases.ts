import { and, asc, desc, eq, isNotNull, isNull, lt, type SQL } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../lib/cursor.js';
import { isUuid } from '../../lib/ids.js';
import type { CursorPage } from '../../lib/pagination.js';
import type { CaseRow } from './case-event.js';
import { caseNotFound, selectCase } from './lock-case.js';
import { treatmentHistory, treatments, type TreatmentStatus } from './table.js';

/** A case as the API and the CLI show it: its state, never answers. */
export function caseView(row: CaseRow, formName: string) {
  const step = row.steps[row.stepIndex];
  return {
    id: row.id,
    number: row.number,
    formId: row.formId,
    formName,
    flowKey: row.flowKey,
    responseId: row.responseId,
    chainedFromId: row.chainedFromId,
    status: row.status,
    stepIndex: row.stepIndex,
    stepName: step.name,
    responsible: step.responsible,
    dueAt: row.stepDueAt?.toISOString() ?? null,
    overdue: row.status === 'open' && row.overdueNotifiedAt !== null,
    outcome: row.outcome,
    reason: row.reason,
    orgUnitId: row.orgUnitId,
    orgPath: row.orgPath,
    openedAt: row.openedAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    steps: row.steps.map((s) => ({ name: s.name, responsible: s.responsible, dueInWorkingDays: s.dueInWorkingDays })),
  };
}
export type CaseView = ReturnType<typeof caseView>;

export interface ListCasesInput {
  companyId: string;
  limit: number;
  cursor?: string;
  status?: TreatmentStatus;
  formId?: string;
  /** Panel: only cases of this flow key. */
  flowKey?: string;
  /** Panel: only open cases flagged overdue (true) or not flagged (false), as `overdue` in the view. */
  overdue?: boolean;
}

const isPosition = (p: unknown): p is { n: number } => typeof p === 'object' && p !== null && Number.isSafeInteger((p as { n: number }).n);

/** A page of the company's cases, newest first (number desc: numbers follow opening order). */
export async function listCases(db: DbOrTx, deps: { cursorSecret: string }, input: ListCasesInput): Promise<CursorPage<CaseView>> {
  const binding: CursorBinding = { companyId: input.companyId, scope: { route: 'treatments', status: input.status, formId: input.formId, flowKey: input.flowKey, overdue: input.overdue } };
  const position = input.cursor !== undefined ? decodeCursor(deps.cursorSecret, binding, input.cursor, isPosition) : null;
  if (input.formId !== undefined && !isUuid(input.formId)) return position ? { items: [], hasMore: false, nextCursor: null } : { items: [], hasMore: false, nextCursor: null, total: 0 };
  const filter = and(
    eq(treatments.companyId, input.companyId),
    input.status ? eq(treatments.status, input.status) : undefined,
    input.formId ? eq(treatments.formId, input.formId) : undefined,
    input.flowKey !== undefined ? eq(treatments.flowKey, input.flowKey) : undefined,
    input.overdue === undefined ? undefined : and(eq(treatments.status, 'open'), input.overdue ? isNotNull(treatments.overdueNotifiedAt) : isNull(treatments.overdueNotifiedAt)),
  ) as SQL;
  const rows = await db
    .select({ row: treatments, formName: forms.name })
    .from(treatments)
    .innerJoin(forms, eq(forms.id, treatments.formId))
    .where(and(filter, position ? lt(treatments.number, position.n) : undefined))
    .orderBy(desc(treatments.number))
    .limit(input.limit + 1);
  const hasMore = rows.length > input.limit;
  const items = rows.slice(0, input.limit).map((r) => caseView(r.row, r.formName));
  const nextCursor = hasMore ? encodeCursor(deps.cursorSecret, binding, { n: items.at(-1)!.number }) : null;
  if (position) return { items, hasMore, nextCursor };
  const total = await db.$count(treatments, filter);
  return { items, hasMore, nextCursor, total };
}

/** One case of the company with its history, oldest first; another company's case is NOT_FOUND. */
export async function getCase(db: DbOrTx, _deps: NoDeps, input: { companyId: string; id: string }) {
  const { companyId, id } = input;
  const [found] = isUuid(id) ? await selectCase(db, companyId, id) : [];
  if (!found) throw caseNotFound();
  const history = await db
    .select({ action: treatmentHistory.action, stepIndex: treatmentHistory.stepIndex, outcome: treatmentHistory.outcome, reason: treatmentHistory.reason, at: treatmentHistory.at })
    .from(treatmentHistory)
    .where(eq(treatmentHistory.treatmentId, found.row.id))
    .orderBy(asc(treatmentHistory.id));
  return { ...caseView(found.row, found.formName), history: history.map((h) => ({ ...h, at: h.at.toISOString() })) };
}
