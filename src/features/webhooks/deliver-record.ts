import type pg from 'pg';
import type { Db } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError } from '../../lib/errors.js';
import { ASYNC_COMMIT } from '../../platform/outbound/index.js';
import type { LogFn } from '../../platform/outbound/index.js';
import type { ClaimedDelivery } from './deliver-claim.js';
import type { AttemptResult } from './deliver-send.js';
import { disableSubscription } from './disable-subscription.js';
import { nextAttemptDelay, shouldDisableAfterFailures } from './retry-policy.js';
import type { DeliveryStatus, DisabledReason } from './table.js';

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
  // The target is gone, or resolves where webhooks may never go: trying again changes nothing.
  if (result.statusCode === GONE || result.outcome === 'forbidden') return { status: 'failed', retryAt: null };
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

/** One attempt waiting to be written: what happened, what it means, and when it was judged. */
interface Outcome {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  verdict: Verdict;
  at: Date;
}

/**
 * Writes a batch of attempts in one statement: logs each, settles each delivery and keeps each
 * subscription's failure streak. A delivery is only updated while its worker still holds the
 * lease (same attempt number): a worker that lost it to a crash-recovery claim still logs what it
 * saw, replacing the "abandoned" placeholder. Per subscription, a success in the batch ends the
 * streak; a batch of failures only starts one. Returns the streak start of each subscription
 * that only failed.
 */
const WRITE_OUTCOMES_SQL = `
  WITH input AS (
    SELECT *, ${ASYNC_COMMIT} AS commit_mode FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::text[], $8::text[],
      $9::text[], $10::timestamptz[], $11::timestamptz[], $12::boolean[], $13::uuid[])
      AS i(company_id, delivery_id, attempt, started_at, duration_ms, status_code, error, response_body,
        status, retry_at, judged_at, failed, subscription_id)
  ), attempt AS (
    INSERT INTO webhook_attempts (company_id, delivery_id, attempt, started_at, duration_ms, status_code, error, response_body)
    SELECT i.company_id, i.delivery_id, i.attempt, i.started_at, i.duration_ms, i.status_code, i.error, i.response_body
    FROM input i
    -- A delivery deleted meanwhile (with its subscription) has nothing left to log.
    JOIN webhook_deliveries d ON d.id = i.delivery_id
    ON CONFLICT (company_id, delivery_id, attempt) DO UPDATE SET started_at = excluded.started_at, duration_ms = excluded.duration_ms,
      status_code = excluded.status_code, error = excluded.error, response_body = excluded.response_body
  ), delivery AS (
    UPDATE webhook_deliveries d SET
      status = i.status,
      next_attempt_at = coalesce(i.retry_at, d.next_attempt_at),
      lease_until = NULL,
      completed_at = CASE WHEN i.status = 'pending' THEN NULL ELSE i.judged_at END
    FROM input i
    WHERE d.id = i.delivery_id AND d.attempts = i.attempt AND d.status = 'pending'
  ), outcome AS (
    SELECT subscription_id, bool_and(failed) AS failed, min(judged_at) AS first_at FROM input GROUP BY subscription_id
  ), streak AS (
    UPDATE webhook_subscriptions s SET failing_since = CASE WHEN o.failed THEN o.first_at END
    FROM outcome o
    WHERE s.id = o.subscription_id AND (s.failing_since IS NULL) = o.failed
    RETURNING s.id, s.failing_since
  )
  SELECT o.subscription_id, coalesce(st.failing_since, s.failing_since) AS failing_since
  FROM outcome o
  JOIN webhook_subscriptions s ON s.id = o.subscription_id
  LEFT JOIN streak st ON st.id = o.subscription_id
  WHERE o.failed`;

/**
 * Planned at every call, not as a named prepared statement: the generic plan a connection kept
 * from its first calls, made while the bench's freshly truncated table looked tiny, joined the
 * batch by a sequential scan of webhook_deliveries and a bitmap scan of the whole partial "due"
 * index (16,558 entries, dead ones included, for 12 rows) on every call. Planned per call with the
 * table's current size, it looks each row up by its primary key.
 */
async function writeOutcomes(pool: pg.Pool, outcomes: Outcome[]): Promise<Map<string, Date | null>> {
  const column = <T>(pick: (o: Outcome) => T) => outcomes.map(pick);
  const written = await pool.query<{ subscription_id: string; failing_since: Date | null }>({
    text: WRITE_OUTCOMES_SQL,
    values: [
      column((o) => o.delivery.companyId),
      column((o) => o.delivery.id),
      column((o) => o.delivery.attempt),
      column((o) => o.result.startedAt),
      column((o) => o.result.durationMs),
      column((o) => o.result.statusCode),
      column((o) => o.result.error),
      column((o) => o.result.responseBody),
      column((o) => o.verdict.status),
      column((o) => o.verdict.retryAt),
      column((o) => o.at),
      column((o) => o.result.outcome !== 'delivered'),
      column((o) => o.delivery.subscriptionId),
    ],
  });
  return new Map(written.rows.map((row) => [row.subscription_id, row.failing_since]));
}

export interface RecorderDeps {
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  /** Jitter source of the retry schedule. */
  random: () => number;
  log: LogFn;
}

export interface Attempt {
  item: ClaimedDelivery;
  result: AttemptResult;
}

/**
 * Records a batch of attempts and their consequences in one statement: 410 disables the
 * subscription at once; failing for 5 days without a single success disables it too (any success
 * resets the streak). Each failure is logged at warn with its subscription.
 */
export async function recordAttempts(deps: RecorderDeps, attempts: Attempt[]): Promise<void> {
  const at = deps.clock.now();
  const outcomes = attempts.map(({ item, result }) => ({ delivery: item, result, verdict: judgeAttempt(item, result, at, deps.random), at }));
  await disableWhereDue(deps, outcomes, await writeOutcomes(deps.pool, outcomes));
  for (const outcome of outcomes) if (outcome.result.outcome !== 'delivered') deps.log('warn', describeFailure(outcome));
}

function describeFailure({ delivery, result, verdict }: Outcome): string {
  const answer = result.statusCode === null ? result.error : `HTTP ${result.statusCode}`;
  const next = verdict.retryAt ? `retry at ${verdict.retryAt.toISOString()}` : 'failed for good';
  return `webhook delivery failed: subscription ${delivery.subscriptionId} delivery ${delivery.id} attempt ${delivery.attempt}: ${answer}; ${next}`;
}

async function disableWhereDue(deps: RecorderDeps, outcomes: Outcome[], streaks: Map<string, Date | null>): Promise<void> {
  const reasons = new Map<string, { companyId: string; reason: DisabledReason }>();
  for (const { delivery, result, at } of outcomes) {
    const failingSince = streaks.get(delivery.subscriptionId) ?? null;
    if (shouldDisableAfterFailures(failingSince, at)) reasons.set(delivery.subscriptionId, { companyId: delivery.companyId, reason: 'failing' });
    if (result.statusCode === GONE) reasons.set(delivery.subscriptionId, { companyId: delivery.companyId, reason: 'gone' });
  }
  for (const [id, { companyId, reason }] of reasons) {
    await disableSubscription(deps.db, deps, { companyId, id, reason }).catch((err: unknown) => {
      // Deleted meanwhile: nothing left to disable.
      if (!(err instanceof ApiError && err.code === 'NOT_FOUND')) throw err;
    });
  }
}
