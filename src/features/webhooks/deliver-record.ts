import type pg from 'pg';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { ClaimedDelivery } from './deliver-claim.js';
import type { AttemptResult } from './deliver-send.js';
import { disableSubscription } from './disable-subscription.js';
import { nextAttemptDelay, shouldDisableAfterFailures } from './retry-policy.js';
import type { DeliveryStatus } from './table.js';

/** 410 Gone: the receiver says the endpoint no longer exists; retrying would be pointless. */
const GONE = 410;

export interface Verdict {
  status: DeliveryStatus;
  /** When a pending delivery is tried again. */
  retryAt: Date | null;
}

/** What an attempt means for its delivery: done, retried at a time from the retry policy, or failed for good. */
export function judgeAttempt(delivery: ClaimedDelivery, result: AttemptResult, now: Date, random: () => number): Verdict {
  if (result.outcome === 'delivered') return { status: 'succeeded', retryAt: null };
  if (result.statusCode === GONE) return { status: 'failed', retryAt: null };
  const delay = nextAttemptDelay({
    attempt: delivery.attempt,
    outcome: result.outcome,
    statusCode: result.statusCode ?? undefined,
    retryAfterHeader: result.retryAfter,
    random,
    now,
  });
  return delay === null ? { status: 'failed', retryAt: null } : { status: 'pending', retryAt: new Date(now.getTime() + delay) };
}

/**
 * Parameters: $1 company, $2 delivery, $3 attempt, $4 started, $5 duration, $6 status code, $7 error,
 * $8 body, $9 delivery status, $10 retry at, $11 now, $12 failed, $13 subscription.
 */
const WRITE_ATTEMPT_SQL = `
  WITH attempt AS (
    INSERT INTO webhook_attempts (company_id, delivery_id, attempt, started_at, duration_ms, status_code, error, response_body)
    VALUES ($1::uuid, $2::uuid, $3::int, $4::timestamptz, $5::int, $6::int, $7::text, $8::text)
    ON CONFLICT (delivery_id, attempt) DO UPDATE SET started_at = excluded.started_at, duration_ms = excluded.duration_ms,
      status_code = excluded.status_code, error = excluded.error, response_body = excluded.response_body
  ), delivery AS (
    UPDATE webhook_deliveries SET
      status = $9::text,
      next_attempt_at = coalesce($10::timestamptz, next_attempt_at),
      lease_until = NULL,
      completed_at = CASE WHEN $9::text = 'pending' THEN NULL ELSE $11::timestamptz END
    WHERE id = $2::uuid AND attempts = $3::int AND status = 'pending'
  ), streak AS (
    UPDATE webhook_subscriptions SET failing_since = CASE WHEN $12::boolean THEN $11::timestamptz END
    WHERE id = $13::uuid AND (failing_since IS NULL) = $12::boolean
    RETURNING failing_since
  )
  SELECT CASE WHEN $12::boolean THEN coalesce(
    (SELECT failing_since FROM streak),
    (SELECT failing_since FROM webhook_subscriptions WHERE id = $13::uuid)) END AS failing_since`;

/**
 * Logs the attempt, settles the delivery and keeps the subscription's failure streak, in one
 * statement. The delivery is only updated while this worker still holds the lease (same attempt
 * number): a worker that lost it to a crash-recovery claim still logs what it saw, and its log
 * line replaces the "abandoned" placeholder. Returns the start of the failure streak after a
 * failure (null after a success).
 */
async function writeAttempt(pool: pg.Pool, delivery: ClaimedDelivery, result: AttemptResult, verdict: Verdict, now: Date): Promise<Date | null> {
  const written = await pool.query<{ failing_since: Date | null }>({
    name: 'webhooks.write-attempt',
    text: WRITE_ATTEMPT_SQL,
    values: [
      delivery.companyId,
      delivery.id,
      delivery.attempt,
      result.startedAt,
      result.durationMs,
      result.statusCode,
      result.error,
      result.responseBody,
      verdict.status,
      verdict.retryAt,
      now,
      result.outcome !== 'delivered',
      delivery.subscriptionId,
    ],
  });
  return written.rows[0].failing_since;
}

/**
 * Records an attempt and its consequences: 410 disables the subscription at once; failing for
 * 5 days without a single success disables it too (any success resets the streak).
 */
export async function recordAttempt(
  deps: { db: Db; pool: pg.Pool; clock: Clock; random: () => number },
  delivery: ClaimedDelivery,
  result: AttemptResult,
): Promise<Verdict> {
  const now = deps.clock.now();
  const verdict = judgeAttempt(delivery, result, now, deps.random);
  const failingSince = await writeAttempt(deps.pool, delivery, result, verdict, now);
  const reason = result.statusCode === GONE ? 'gone' : shouldDisableAfterFailures(failingSince, now) ? 'failing' : null;
  if (reason) await disableSubscription(deps.db, deps, delivery.companyId, delivery.subscriptionId, reason);
  return verdict;
}
