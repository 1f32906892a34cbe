import { and, eq, getTableColumns, gt, inArray, isNull, lt, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database.js';
import { forms, responses } from '../../platform/db/schema.js';
import { defineSweep, inBatches } from '../../platform/jobs/define-sweep.js';
import { isVisible } from '../forms/index.js';
import type { EmitDeps } from '../events/index.js';
import type { ResponseHandler } from '../responses/index.js';
import type { CaseRow } from './case-event.js';
import { openCase, respondentKey } from './open-case.js';
import { treatments } from './table.js';

const BATCH = 500;

/** A failed check opens a case chained to the earlier one: same flow and steps, no response of its own. */
function openChained(tx: Tx, deps: EmitDeps, row: CaseRow, formName: string) {
  return openCase(tx, deps, {
    companyId: row.companyId, formId: row.formId, formName, flowId: row.flowId, flowKey: row.flowKey, steps: row.steps,
    responseId: null, chainedFromId: row.id, orgUnitId: row.orgUnitId, orgPath: row.orgPath,
    respondentKey: row.respondentKey, effectivenessCheck: row.effectivenessCheck,
  });
}

/** A case of this flow opened by that response: the problem it shows is already being handled. */
const openedOwnCase = (row: CaseRow, responseId: SQLWrapper | string) =>
  sql`EXISTS (SELECT 1 FROM treatments o WHERE o.response_id = ${responseId} AND o.flow_key = ${row.flowKey})`;

/** The respondent's answers to the case's form since it closed that opened no case of this flow (the date check's evidence). */
async function answersSinceClosing(tx: Tx, row: CaseRow) {
  const [field, ...rest] = row.respondentKey!.split(':');
  const rows = await tx
    .select({ answers: responses.answers })
    .from(responses)
    .where(
      and(
        eq(responses.companyId, row.companyId), eq(responses.formId, row.formId), gt(responses.createdAt, row.closedAt!),
        sql`${responses.respondent}->>${field} = ${rest.join(':')}`, sql`NOT ${openedOwnCase(row, responses.id)}`,
      ),
    );
  return rows.map((r) => r.answers);
}

/**
 * Decides up to `limit` date checks that came due: claimed with SKIP LOCKED and marked done in the
 * same transaction (once, however many sweepers); one fails when the respondent answered the form
 * again since closing with answers that satisfy the flow's condition.
 */
async function claimDueChecks(db: Db, deps: EmitDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ row: treatments, formName: forms.name })
      .from(treatments)
      .innerJoin(forms, eq(forms.id, treatments.formId))
      .where(and(isNull(treatments.checkDoneAt), lt(treatments.checkDueAt, now)))
      .orderBy(treatments.checkDueAt)
      .limit(limit)
      .for('update', { of: treatments, skipLocked: true });
    if (due.length === 0) return 0;
    await tx.update(treatments).set({ checkDoneAt: now }).where(inArray(treatments.id, due.map((d) => d.row.id)));
    for (const { row, formName } of due) {
      const failsWhen = row.effectivenessCheck!.failsWhen;
      if ((await answersSinceClosing(tx, row)).some((answers) => isVisible(failsWhen, answers))) await openChained(tx, deps, row, formName);
    }
    return due.length;
  });
}

export const effectivenessSweep = defineSweep({
  name: 'treatments.effectiveness',
  cron: '11 * * * *',
  sweep: (ctx) => inBatches(BATCH, (limit) => claimDueChecks(ctx.db, ctx, limit)),
});

/**
 * A response of a respondent whose resolved case waits for their next response to this form
 * decides that check (once: claimed and marked in the response's transaction); when the answers
 * satisfy `failsWhen` a chained case opens.
 */
export const responseCheckConsumer: ResponseHandler = {
  async onResponse(tx, deps, response) {
    const key = respondentKey(response.respondent);
    if (!key) return;
    const waiting = await tx
      .select({ ...getTableColumns(treatments), formName: forms.name })
      .from(treatments)
      .innerJoin(forms, eq(forms.id, treatments.formId))
      .where(and(eq(treatments.companyId, response.companyId), eq(treatments.checkFormId, response.formId), eq(treatments.respondentKey, key), isNull(treatments.checkDoneAt)))
      .for('update', { of: treatments, skipLocked: true });
    if (waiting.length === 0) return;
    await tx.update(treatments).set({ checkDoneAt: deps.clock.now() }).where(inArray(treatments.id, waiting.map((w) => w.id)));
    for (const { formName, ...row } of waiting) {
      if (!isVisible(row.effectivenessCheck!.failsWhen, response.answers)) continue;
      const { rows } = await tx.execute<{ handled: boolean }>(sql`SELECT ${openedOwnCase(row, response.id)} AS handled`);
      if (!rows[0].handled) await openChained(tx, deps, row, formName);
    }
  },
};
