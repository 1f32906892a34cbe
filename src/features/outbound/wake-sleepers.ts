import { sql, type SQL } from 'drizzle-orm';

/**
 * The application_name a loop's LISTEN connection carries while that loop sleeps (nothing to
 * claim, nothing in flight). Postgres shows it to every session, and forgets it with the
 * connection, so a dead loop is never counted as a sleeper.
 */
export function sleeperName(channel: string): string {
  return `quorum asleep: ${channel}`;
}

/**
 * For the statement that queues work: NOTIFY `channel` when `queued` holds and some loop sleeps on
 * it. A NOTIFY makes its transaction's commit take a database-wide lock until the commit is
 * flushed, so one per event serialises every emitting transaction (≈200 commits/s with 8
 * sessions where ≈2,000 commit without it). A busy loop needs none: it claims again as each
 * item finishes. A loop falling asleep re-checks after it shows as a sleeper, for transactions
 * that looked before and commit after.
 */
export function wakeSleepers(channel: string, queued: SQL): SQL {
  return sql`CASE WHEN ${queued} AND EXISTS (
      SELECT FROM pg_stat_get_activity(NULL) AS a
      WHERE a.application_name = ${sleeperName(channel)} AND a.datid = (SELECT oid FROM pg_database WHERE datname = current_database())
    ) THEN pg_notify(${channel}, '') END`;
}
