import { sql } from 'drizzle-orm';
import { defineSweep, inBatches, retentionCutoff } from '../../platform/jobs/define-sweep.js';

/** The delivery log (contract decisions, Events): attempts are kept 30 days. */
export const DELIVERY_LOG_RETENTION_DAYS = 30;
const BATCH = 5_000;

/**
 * The delivery log: attempts older than 30 days, and deliveries finished (succeeded or failed)
 * more than 30 days ago with what is left of their attempts. Pending deliveries stay; they go
 * with their event when the events sweep removes it.
 */
export const pruneDeliveries = defineSweep({
  name: 'webhooks.prune',
  cron: '27 3 * * *',
  async sweep(ctx) {
    const cutoff = retentionCutoff(ctx, DELIVERY_LOG_RETENTION_DAYS);
    const attempts = await inBatches(BATCH, async (limit) => {
      const result = await ctx.db.execute(sql`DELETE FROM webhook_attempts WHERE (company_id, delivery_id, attempt) IN (
        SELECT company_id, delivery_id, attempt FROM webhook_attempts WHERE started_at < ${cutoff}::timestamptz LIMIT ${limit} FOR UPDATE SKIP LOCKED)`);
      return result.rowCount ?? 0;
    });
    const deliveries = await inBatches(BATCH, async (limit) => {
      const result = await ctx.db.execute(sql`DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND completed_at < ${cutoff}::timestamptz
        LIMIT ${limit} FOR UPDATE SKIP LOCKED)`);
      return result.rowCount ?? 0;
    });
    return attempts + deliveries;
  },
});
