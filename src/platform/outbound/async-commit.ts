/**
 * A SELECT-list expression (referenced from the statement's result, so no extra round trip) that
 * makes the statement's own transaction commit without waiting for its WAL flush: the loop's
 * claims and results stop queueing behind the emitters' flushes (bench/README.md, webhooks, item 2).
 * Bookkeeping only: a crash may send an item again, never lose it (the work was queued synchronously).
 */
export const ASYNC_COMMIT = `set_config('synchronous_commit', 'off', true)`;
