import { sql } from 'drizzle-orm';
import { defineTask } from '../../jobs/define-task.js';

export const EVENT_RETENTION_DAYS = 30;

/** Daily sweep: events are kept for reconciliation for 30 days, then removed. */
export const pruneEventsTask = defineTask<Record<string, never>>({
  name: 'events.prune',
  cron: '17 3 * * *',
  async handler(_payload, ctx) {
    const cutoff = new Date(ctx.clock.now().getTime() - EVENT_RETENTION_DAYS * 86_400_000);
    await ctx.db.execute(sql`DELETE FROM events WHERE occurred_at < ${cutoff.toISOString()}::timestamptz`);
  },
});
