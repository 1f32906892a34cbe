import { maxAttempts, retryDelay, type RetrySchedule } from '../../platform/outbound/index.js';

export { parseRetryAfter } from '../../platform/outbound/index.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The webhook schedule (contract decisions, Events): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const WEBHOOK_SCHEDULE: RetrySchedule = {
  delaysMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  jitterRatio: 0.1,
  // A receiver that timed out or throttled us is overloaded; 5 s is too soon to come back.
  overloadFloorMs: MINUTE,
  maxRetryAfterMs: 10 * HOUR,
};

export const RETRY_DELAYS_MS = WEBHOOK_SCHEDULE.delaysMs;
export const MAX_ATTEMPTS = maxAttempts(WEBHOOK_SCHEDULE);
/** A subscription failing for this long without a single success is disabled. */
export const DISABLE_AFTER_MS = 5 * DAY;

export type AttemptOutcome = 'error' | 'timeout' | 'status';

export interface FailedAttempt {
  /** Attempts already made, the failed one included (1 after the first attempt). */
  attempt: number;
  /** error: no HTTP answer (refused, reset, DNS, TLS); timeout: no answer in time; status: a non-2xx answer. */
  outcome: AttemptOutcome;
  statusCode?: number;
  retryAfterHeader?: string | null;
  /** Source of jitter in [0, 1); injected so a delay is reproducible. */
  random: () => number;
  /** Needed to turn a retry-after HTTP date into a delay. */
  now: Date;
}

/**
 * Milliseconds to wait before the next attempt, or null when no retry is left: the webhook
 * schedule, where a timeout or a 429 means overloaded and only an HTTP answer's retry-after counts.
 */
export function nextAttemptDelay(failed: FailedAttempt): number | null {
  const { outcome, statusCode } = failed;
  return retryDelay(WEBHOOK_SCHEDULE, {
    attempt: failed.attempt,
    overloaded: outcome === 'timeout' || (outcome === 'status' && statusCode === 429),
    retryAfterHeader: outcome === 'status' ? failed.retryAfterHeader : null,
    random: failed.random,
    now: failed.now,
  });
}

/** firstFailureWithoutSuccessAt: start of the current failure streak (null when the last delivery succeeded). */
export function shouldDisableAfterFailures(firstFailureWithoutSuccessAt: Date | null, now: Date): boolean {
  if (!firstFailureWithoutSuccessAt) return false;
  return now.getTime() - firstFailureWithoutSuccessAt.getTime() >= DISABLE_AFTER_MS;
}
