import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { uuidv7SqlAt } from '../../platform/db/uuidv7-sql.js';
import { defineSweep, inBatches } from '../../platform/jobs/define-sweep.js';
import { storeEventsFrom, type EmitDeps } from '../events/index.js';
import { caseEventDataSql } from './case-event.js';

const BATCH = 5_000;

/**
 * Claims up to `limit` open steps whose deadline passed and that were never notified, marks them
 * (overdue_notified_at, so each step is notified once however many sweepers run: SKIP LOCKED
 * shares the rows and the mark is decided in the same statement), records history and stores one
 * treatment.overdue per step with its deliveries: one statement, built in SQL from the claimed
 * rows (building the 5,000 events of a batch in JS and sending them back cost twice the claim).
 */
async function claimOverdue(db: Db, deps: EmitDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  const at = sql`${now.toISOString()}::timestamptz`;
  return db.transaction((tx) =>
    storeEventsFrom(tx, deps, {
      // id = ANY(ARRAY(...)): the claimed ids are looked up by primary key (a join would hash the whole table).
      with: sql`marked AS (
          UPDATE treatments t SET overdue_notified_at = ${at}
          WHERE t.id = ANY(ARRAY(
            SELECT id FROM treatments
            WHERE status = 'open' AND overdue_notified_at IS NULL AND step_due_at < ${at}
            ORDER BY step_due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED))
          RETURNING t.*),
        logged AS (
          INSERT INTO treatment_history (company_id, treatment_id, action, step_index, at)
          SELECT company_id, id, 'overdue', step_index, ${at} FROM marked)`,
      events: sql`SELECT ${uuidv7SqlAt(now)} AS id, c.company_id, 'treatment.overdue' AS type, ${caseEventDataSql('treatment.overdue', now)} AS data, ${at} AS occurred_at
        FROM marked c JOIN forms f ON f.id = c.form_id`,
    }),
  );
}

/**
 * Two claimers side by side: a batch's statement works on one core of the database, and SKIP
 * LOCKED shares the rows between them as between two sweepers.
 */
const LANES = 2;

/** Emits treatment.overdue once per step whose working-day deadline has passed. */
export async function sweepOverdue(db: Db, deps: EmitDeps, input: { batchSize?: number } = {}): Promise<number> {
  const { batchSize = BATCH } = input;
  const lanes = Array.from({ length: LANES }, () => inBatches(batchSize, (limit) => claimOverdue(db, deps, limit)));
  return (await Promise.all(lanes)).reduce((sum, n) => sum + n, 0);
}

export const overdueSweep = defineSweep({
  name: 'treatments.overdue',
  cron: '*/5 * * * *',
  sweep: (ctx) => sweepOverdue(ctx.db, ctx),
});
