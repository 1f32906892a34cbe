import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { NoDeps } from '../../lib/service.js';
import { defineSweep, inBatches } from '../../platform/jobs/define-sweep.js';
import { lockFormRollups } from './lock-form-rollups.js';

/** Pending rows folded per transaction: the form's row lock, and so its submissions, wait for one batch (300 fold in ≈0.2 s on the bench form). */
const BATCH = 500;

/**
 * Folds every pending rollup row (migration 0540) into its form's day and month rows, a form at a
 * time and a batch per transaction under the form's row lock. Readers count a response once
 * before and after: the batch leaves the pending rows and enters the rollups in one commit.
 * Returns how many responses it folded.
 */
export async function foldPendingRollups(db: Db, _deps: NoDeps, input: { batchSize?: number } = {}): Promise<number> {
  const { batchSize = BATCH } = input;
  const { rows: forms } = await db.execute<{ companyId: string; formId: string }>(sql`
    SELECT DISTINCT company_id AS "companyId", form_id AS "formId" FROM statistics_rollup_pending`);
  let folded = 0;
  for (const { companyId, formId } of forms) {
    folded += await inBatches(batchSize, (limit) =>
      db.transaction(async (tx) => {
        await lockFormRollups(tx, companyId, formId);
        // A statement after the lock: its snapshot holds every submission committed before it.
        const { rows } = await tx.execute<{ n: number }>(sql`SELECT statistics_rollups_fold(${companyId}::uuid, ${formId}::uuid, ${limit}) AS n`);
        return rows[0].n;
      }),
    );
  }
  return folded;
}

/** Every minute (the queue's cron is per minute): readers count pending rows one by one, so few should wait. */
export const foldRollupsSweep = defineSweep({
  name: 'statistics.fold-rollups',
  cron: '* * * * *',
  sweep: (ctx) => foldPendingRollups(ctx.db, ctx),
});
