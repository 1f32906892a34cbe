import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';

/**
 * changedSince without gaps. A statusChangedAt read from the clock before a transaction that
 * commits later is the classic gap: a scan starting in between misses the row, and the next scan,
 * passing the time the first started, filters it out. So roster writes of a company hold this
 * lock (exclusive) from before they read the clock until they commit, and the first page of a
 * scan takes it shared before it reads: it waits for writers in flight, and every writer after
 * it stamps a later time. Writers of one company are serialised, so stamps follow commit order.
 */
const LOCK = sql`hashtext('rosters'), hashtext`;

/** Takes the company's roster write lock and returns the stamp of this write: never before an earlier stamp. */
export async function lockRosterWrites(tx: Tx, clock: Clock, companyId: string): Promise<Date> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCK}(${companyId}))`);
  // greatest(): a clock that stepped back (another instance, NTP) must not stamp behind a committed change.
  const { rows } = await tx.execute<{ stamp: Date }>(sql`
    SELECT greatest(${clock.now().toISOString()}::timestamptz, max(status_changed_at)) AS stamp
      FROM enrollments WHERE company_id = ${companyId}`);
  return new Date(rows[0].stamp);
}

/** Waits until the company's roster writes in flight have committed (the first page of a scan). */
export async function awaitRosterWrites(tx: DbOrTx, companyId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${LOCK}(${companyId}))`);
}
