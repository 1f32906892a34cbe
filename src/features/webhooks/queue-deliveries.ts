import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { wakeSleepers } from '../outbound/wake-sleepers.js';

/** LISTENed to by the delivery loops; Postgres delivers it at commit, never for a rolled-back transaction. */
export const DELIVERIES_CHANNEL = 'quorum_webhook_deliveries';

/**
 * Inserts pending deliveries, set-wise, from a SELECT of (id, company_id, subscription_id,
 * event_id, due_at), and wakes the sleeping delivery workers when the caller's transaction commits.
 * `alongside` is a statement run in the same round trip (the event the deliveries are of).
 * Returns how many were queued.
 */
export async function queueDeliveries(db: DbOrTx, rows: SQL, alongside?: SQL): Promise<number> {
  const result = await db.execute<{ queued: number }>(sql`
    WITH ${alongside ? sql`alongside AS (${alongside}), ` : sql``}queued AS (
      INSERT INTO webhook_deliveries (id, company_id, subscription_id, event_id, next_attempt_at, created_at)
      SELECT id, company_id, subscription_id, event_id, due_at, due_at FROM (${rows}) AS r
      RETURNING 1
    )
    SELECT n AS queued, ${wakeSleepers(DELIVERIES_CHANNEL, sql`n > 0`)} AS woken
    FROM (SELECT count(*)::int AS n FROM queued) AS c`);
  return result.rows[0].queued;
}
