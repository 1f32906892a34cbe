/**
 * A SELECT-list expression that makes the statement's own (implicit) transaction commit without
 * waiting for its WAL flush. For the loop's bookkeeping only (claims, results): losing its last
 * few milliseconds to a Postgres crash means an item is sent again (at least once), never lost,
 * because the work itself was queued by a synchronous commit. Waiting for each flush behind the
 * commits of every emitting transaction is what throttled claims under load. It must be evaluated
 * by the statement (referenced from its result), and costs no extra round trip.
 */
export const ASYNC_COMMIT = `set_config('synchronous_commit', 'off', true)`;
