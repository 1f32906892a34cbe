import { sql } from 'drizzle-orm';
import { defineTask } from '../../jobs/define-task.js';

/** The delivery log (contract decisions, Events): attempts are kept 30 days. */
export const DELIVERY_LOG_RETENTION_DAYS = 30;

/**
 * Daily sweep of the delivery log: attempts older than 30 days, and deliveries finished (succeeded
 * or failed) more than 30 days ago with what is left of their attempts. Pending deliveries stay;
 * they go with their event when the events sweep removes it.
 */
export const pruneDeliveriesTask = defineTask<Record<string, never>>({
  name: 'webhooks.prune',
  cron: '27 3 * * *',
  async handler(_payload, ctx) {
    const cutoff = new Date(ctx.clock.now().getTime() - DELIVERY_LOG_RETENTION_DAYS * 86_400_000).toISOString();
    await ctx.db.execute(sql`DELETE FROM webhook_attempts WHERE started_at < ${cutoff}::timestamptz`);
    await ctx.db.execute(sql`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND completed_at < ${cutoff}::timestamptz`);
  },
});
