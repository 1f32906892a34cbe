const SECOND = 1000;

/** A kind's retry schedule: the delays between attempts, and how receivers may stretch them. */
export interface RetrySchedule {
  /** Delay before retry n+1; after the last one the item is failed for good. */
  delaysMs: readonly number[];
  /** Jitter spreads retries of many items that failed together (a receiver outage) over time. */
  jitterRatio: number;
  /** Least delay after the receiver said it is overloaded (a timeout, a throttling answer). */
  overloadFloorMs: number;
  /** A receiver's retry-after cannot push a retry further out than this. */
  maxRetryAfterMs: number;
}

export interface FailedTry {
  /** Attempts already made, the failed one included (1 after the first attempt). */
  attempt: number;
  /** The receiver is overloaded: come back no sooner than the schedule's overload floor. */
  overloaded: boolean;
  /** The receiver's retry-after, when its answer carried one. */
  retryAfterHeader?: string | null;
  /** Source of jitter in [0, 1); injected so a delay is reproducible. */
  random: () => number;
  /** Needed to turn a retry-after HTTP date into a delay. */
  now: Date;
}

/** The first attempt plus one per scheduled retry. */
export function maxAttempts(schedule: RetrySchedule): number {
  return schedule.delaysMs.length + 1;
}

/**
 * Milliseconds to wait before the next attempt, or null when no retry is left.
 *
 * delay = max(
 *   step + floor(step * jitterRatio * random()),   the jittered schedule
 *   overloadFloorMs                                only when overloaded,
 *   min(retry-after, maxRetryAfterMs)              only with a usable retry-after
 * )
 * so the receiver can slow us down but never speed us up, and never beyond maxRetryAfterMs.
 */
export function retryDelay(schedule: RetrySchedule, failed: FailedTry): number | null {
  const { attempt } = failed;
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  if (attempt > schedule.delaysMs.length) return null;
  const step = schedule.delaysMs[attempt - 1];
  const jittered = step + Math.floor(step * schedule.jitterRatio * failed.random());
  const floor = failed.overloaded ? schedule.overloadFloorMs : 0;
  const asked = failed.retryAfterHeader ? Math.min(parseRetryAfter(failed.retryAfterHeader, failed.now), schedule.maxRetryAfterMs) : 0;
  return Math.max(jittered, floor, asked);
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
