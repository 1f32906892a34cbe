import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { defineSweep, inBatches } from '../../jobs/define-sweep.js';
import type { EmitDeps } from '../events/emit-event.js';
import { emitCaseEvents, type CaseRow } from './case-event.js';

const BATCH = 5_000;

type ClaimedRow = CaseRow & { formName: string } & Record<string, unknown>;

/**
 * Claims up to `limit` open steps whose deadline passed and that were never notified, marks them
 * (overdue_notified_at, so each step is notified once however many sweepers run: SKIP LOCKED
 * shares the rows and the mark is decided in the same statement), records history and emits one
 * treatment.overdue per step, all in one transaction.
 */
async function claimOverdue(db: Db, deps: EmitDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  return db.transaction(async (tx) => {
    // id = ANY(ARRAY(...)): the claimed ids are looked up by primary key (a join would hash the whole table).
    const result = await tx.execute<ClaimedRow>(sql`WITH marked AS (
        UPDATE treatments t SET overdue_notified_at = ${now.toISOString()}::timestamptz
        WHERE t.id = ANY(ARRAY(
          SELECT id FROM treatments
          WHERE status = 'open' AND overdue_notified_at IS NULL AND step_due_at < ${now.toISOString()}::timestamptz
          ORDER BY step_due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED))
        RETURNING t.*),
      logged AS (
        INSERT INTO treatment_history (company_id, treatment_id, action, step_index, at)
        SELECT company_id, id, 'overdue', step_index, ${now.toISOString()}::timestamptz FROM marked)
      SELECT m.id, m.company_id AS "companyId", m.number, m.form_id AS "formId", m.response_id AS "responseId", m.steps,
        m.status, m.step_index AS "stepIndex", m.step_due_at AS "stepDueAt", m.org_unit_id AS "orgUnitId", m.org_path AS "orgPath",
        m.outcome, m.reason, f.name AS "formName"
      FROM marked m JOIN forms f ON f.id = m.form_id`);
    const cases = result.rows.map((row) => ({ row: { ...row, stepDueAt: new Date(row.stepDueAt!) }, formName: row.formName }));
    await emitCaseEvents(tx, deps, 'treatment.overdue', cases, now);
    return cases.length;
  });
}

/** Emits treatment.overdue once per step whose working-day deadline has passed. */
export function sweepOverdue(db: Db, deps: EmitDeps, batchSize = BATCH): Promise<number> {
  return inBatches(batchSize, (limit) => claimOverdue(db, deps, limit));
}

export const overdueSweep = defineSweep({
  name: 'treatments.overdue',
  cron: '*/5 * * * *',
  sweep: (ctx) => sweepOverdue(ctx.db, ctx),
});
