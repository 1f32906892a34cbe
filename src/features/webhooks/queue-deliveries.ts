import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { wakeSleepers } from '../../platform/outbound/index.js';

/** LISTENed to by the delivery loops; Postgres delivers it at commit, never for a rolled-back transaction. */
export const DELIVERIES_CHANNEL = 'quorum_webhook_deliveries';

/** The INSERT of pending deliveries from a SELECT of (id, company_id, subscription_id, event_id, due_at); returns 1 per row. */
export function insertDeliveries(rows: SQL): SQL {
  return sql`INSERT INTO webhook_deliveries (id, company_id, subscription_id, event_id, next_attempt_at, created_at)
    SELECT id, company_id, subscription_id, event_id, due_at, due_at FROM (${rows}) AS r
    RETURNING 1`;
}

/** Wakes the sleeping delivery loops at commit when `count` deliveries were queued (awake loops need no NOTIFY). */
export function wakeDeliveries(count: SQL): SQL {
  return wakeSleepers(DELIVERIES_CHANNEL, sql`${count} > 0`);
}

/** Inserts pending deliveries set-wise (see insertDeliveries) and wakes the workers; returns how many were queued. */
export async function queueDeliveries(db: DbOrTx, rows: SQL): Promise<number> {
  const result = await db.execute<{ queued: number }>(sql`
    WITH queued AS (${insertDeliveries(rows)})
    SELECT n AS queued, ${wakeDeliveries(sql`n`)} AS woken
    FROM (SELECT count(*)::int AS n FROM queued) AS c`);
  return result.rows[0].queued;
}
