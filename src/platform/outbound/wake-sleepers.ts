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
 * it. A NOTIFY's commit holds a database-wide lock until flushed, so one per event serialised the
 * emitting transactions (bench/README.md, webhooks, item 1); a busy loop claims again unprompted,
 * and one falling asleep re-checks for transactions that looked before and commit after.
 */
export function wakeSleepers(channel: string, queued: SQL): SQL {
  return sql`CASE WHEN ${queued} AND EXISTS (
      SELECT FROM pg_stat_get_activity(NULL) AS a
      WHERE a.application_name = ${sleeperName(channel)} AND a.datid = (SELECT oid FROM pg_database WHERE datname = current_database())
    ) THEN pg_notify(${channel}, '') END`;
}
