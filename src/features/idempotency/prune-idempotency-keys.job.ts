import { sql } from 'drizzle-orm';
import { defineSweep, inBatches } from '../../platform/jobs/define-sweep.js';

const BATCH = 5_000;

/** Idempotency keys and their stored answers are kept 24 hours, then removed. */
export const pruneIdempotencyKeys = defineSweep({
  name: 'idempotency.prune',
  cron: '23 * * * *',
  async sweep(ctx) {
    const now = ctx.clock.now().toISOString();
    return inBatches(BATCH, async (limit) => {
      const result = await ctx.db.execute(sql`DELETE FROM idempotency_keys WHERE (company_id, api_key_id, idem_key) IN (
        SELECT company_id, api_key_id, idem_key FROM idempotency_keys WHERE expires_at <= ${now}::timestamptz LIMIT ${limit} FOR UPDATE SKIP LOCKED)`);
      return result.rowCount ?? 0;
    });
  },
});
