import { describe, expect, it } from 'vitest';
import {
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  nextAttemptDelay,
  parseRetryAfter,
  shouldDisableAfterFailures,
  type FailedAttempt,
} from './retry-policy.js';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const now = new Date('2026-03-01T12:00:00.000Z');
const noJitter = () => 0;

function delay(overrides: Partial<FailedAttempt>): number | null {
  return nextAttemptDelay({ attempt: 1, outcome: 'error', random: noJitter, now, ...overrides });
}

describe('schedule', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: seven retries after the first attempt', () => {
    expect(RETRY_DELAYS_MS).toEqual([5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('gives each scheduled delay without jitter, then null after the eighth attempt', () => {
    const delays = Array.from({ length: 8 }, (_, i) => delay({ attempt: i + 1 }));
    expect(delays).toEqual([...RETRY_DELAYS_MS, null]);
    expect(delay({ attempt: 9 })).toBeNull();
  });

  it('rejects an attempt count that is not a positive integer', () => {
    expect(() => delay({ attempt: 0 })).toThrow(RangeError);
    expect(() => delay({ attempt: 1.5 })).toThrow(RangeError);
  });
});

describe('jitter', () => {
  it('adds up to 10% of the delay, floored, deterministic given random', () => {
    expect(delay({ attempt: 2, random: () => 0.5 })).toBe(5 * MIN + 15 * S);
    expect(delay({ attempt: 2, random: () => 0.999 })).toBe(5 * MIN + 29_970);
    expect(delay({ attempt: 7, random: () => 0.999 })).toBe(10 * H + Math.floor(10 * H * 0.0999));
    expect(delay({ attempt: 1, random: () => 0.5 })).toBe(delay({ attempt: 1, random: () => 0.5 }));
  });
});

describe('overload floor', () => {
  it('waits at least 60 s after a timeout or a 429', () => {
    expect(delay({ attempt: 1, outcome: 'timeout', random: () => 0.999 })).toBe(60 * S);
    expect(delay({ attempt: 1, outcome: 'status', statusCode: 429 })).toBe(60 * S);
  });

  it('does not apply to other failures, nor when the schedule is already longer', () => {
    expect(delay({ attempt: 1, outcome: 'status', statusCode: 503 })).toBe(5 * S);
    expect(delay({ attempt: 1, outcome: 'error' })).toBe(5 * S);
    expect(delay({ attempt: 2, outcome: 'timeout' })).toBe(5 * MIN);
  });
});

describe('retry-after', () => {
  it('is honoured in seconds when larger than the schedule', () => {
    expect(delay({ attempt: 1, outcome: 'status', statusCode: 503, retryAfterHeader: '120' })).toBe(120 * S);
    expect(delay({ attempt: 1, outcome: 'status', statusCode: 429, retryAfterHeader: '30' })).toBe(60 * S);
  });

  it('is honoured as an HTTP date', () => {
    const header = new Date(now.getTime() + 45 * MIN).toUTCString();
    expect(delay({ attempt: 2, outcome: 'status', statusCode: 503, retryAfterHeader: header })).toBe(45 * MIN);
  });

  it('never shortens the schedule', () => {
    expect(delay({ attempt: 3, outcome: 'status', statusCode: 503, retryAfterHeader: '1' })).toBe(30 * MIN);
    const past = new Date(now.getTime() - H).toUTCString();
    expect(delay({ attempt: 3, outcome: 'status', statusCode: 503, retryAfterHeader: past })).toBe(30 * MIN);
  });

  it('is capped at 10 h', () => {
    expect(delay({ attempt: 1, outcome: 'status', statusCode: 503, retryAfterHeader: '86400' })).toBe(10 * H);
  });

  it('still yields null when no retry is left', () => {
    expect(delay({ attempt: 8, outcome: 'status', statusCode: 429, retryAfterHeader: '10' })).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and the three HTTP date forms; ignores anything else', () => {
    const at = new Date(now.getTime() + 90 * S);
    expect(parseRetryAfter(' 90 ', now)).toBe(90 * S);
    expect(parseRetryAfter(at.toUTCString(), now)).toBe(90 * S);
    expect(parseRetryAfter('Sunday, 01-Mar-26 12:01:30 GMT', now)).toBe(90 * S);
    for (const junk of ['', 'soon', '-5', '1.5', '1e3']) expect(parseRetryAfter(junk, now)).toBe(0);
  });
});

describe('shouldDisableAfterFailures', () => {
  it('disables after 5 days of failures without a success', () => {
    const day = 24 * H;
    expect(shouldDisableAfterFailures(null, now)).toBe(false);
    expect(shouldDisableAfterFailures(new Date(now.getTime() - 5 * day + 1), now)).toBe(false);
    expect(shouldDisableAfterFailures(new Date(now.getTime() - 5 * day), now)).toBe(true);
  });
});
