const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Delay before retry n+1 (contract decisions, Events). After the last one the delivery is failed for good. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** The first attempt plus one per scheduled retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Jitter spreads retries of many deliveries that failed together (a receiver outage) over time. */
export const JITTER_RATIO = 0.1;
/** A receiver that timed out or throttled us is overloaded; 5 s is too soon to come back. */
export const MIN_DELAY_AFTER_OVERLOAD_MS = MINUTE;
/** A receiver's retry-after cannot push a retry further out than the schedule's longest step. */
export const MAX_RETRY_AFTER_MS = 10 * HOUR;
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
 * Milliseconds to wait before the next attempt, or null when no retry is left.
 *
 * delay = max(
 *   schedule[attempt - 1] + floor(schedule[attempt - 1] * 10% * random()),   the jittered schedule
 *   60 s                              only after a timeout or a 429,
 *   min(retry-after, 10 h)            only when the answer carried a usable retry-after
 * )
 * so the receiver can slow us down but never speed us up, and never beyond the 10 h step.
 */
export function nextAttemptDelay(failed: FailedAttempt): number | null {
  const { attempt } = failed;
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  if (attempt > RETRY_DELAYS_MS.length) return null;
  return Math.max(jitteredDelay(RETRY_DELAYS_MS[attempt - 1], failed.random), overloadFloor(failed), retryAfterDelay(failed));
}

function jitteredDelay(delay: number, random: () => number): number {
  return delay + Math.floor(delay * JITTER_RATIO * random());
}

function overloadFloor({ outcome, statusCode }: FailedAttempt): number {
  const overloaded = outcome === 'timeout' || (outcome === 'status' && statusCode === 429);
  return overloaded ? MIN_DELAY_AFTER_OVERLOAD_MS : 0;
}

function retryAfterDelay({ outcome, retryAfterHeader, now }: FailedAttempt): number {
  if (outcome !== 'status' || !retryAfterHeader) return 0;
  return Math.min(parseRetryAfter(retryAfterHeader, now), MAX_RETRY_AFTER_MS);
}

/** Every HTTP-date form (IMF-fixdate, RFC 850, asctime) opens with a day name; Date.parse alone reads "1.5" as a date. */
const HTTP_DATE_START = /^[A-Za-z]{3}/;

/** RFC 9110 retry-after: delay-seconds or an HTTP date. Anything unreadable or in the past counts as 0. */
export function parseRetryAfter(header: string, now: Date): number {
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * SECOND;
  const at = HTTP_DATE_START.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? 0 : Math.max(0, at - now.getTime());
}

/** firstFailureWithoutSuccessAt: start of the current failure streak (null when the last delivery succeeded). */
export function shouldDisableAfterFailures(firstFailureWithoutSuccessAt: Date | null, now: Date): boolean {
  if (!firstFailureWithoutSuccessAt) return false;
  return now.getTime() - firstFailureWithoutSuccessAt.getTime() >= DISABLE_AFTER_MS;
}
