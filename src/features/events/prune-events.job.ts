import { sql } from 'drizzle-orm';
import { defineSweep, inBatches, retentionCutoff } from '../../platform/jobs/define-sweep.js';

export const EVENT_RETENTION_DAYS = 30;
const BATCH = 5_000;

/** Events are kept for reconciliation for 30 days, then removed (their deliveries go with them). */
export const pruneEvents = defineSweep({
  name: 'events.prune',
  cron: '17 3 * * *',
  async sweep(ctx) {
    const cutoff = retentionCutoff(ctx, EVENT_RETENTION_DAYS);
    return inBatches(BATCH, async (limit) => {
      const result = await ctx.db.execute(sql`DELETE FROM events WHERE id IN (
        SELECT id FROM events WHERE occurred_at < ${cutoff}::timestamptz LIMIT ${limit} FOR UPDATE SKIP LOCKED)`);
      return result.rowCount ?? 0;
    });
  },
});
