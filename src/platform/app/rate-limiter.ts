import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

/**
 * Rolling-minute limiter as a sliding log of accepted requests: a request is accepted when fewer
 * than `limit` were accepted in the 60 s before it, so no 60-second window ever holds more than
 * `limit` accepted requests, wherever its edges fall (whole-second buckets let up to twice the
 * limit through across a bucket edge). Each accepted request frees its slot exactly 60 s later.
 * Memory per key is bounded by min(limit, requests accepted in the last minute).
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (for ratelimit-reset / retry-after). */
  resetSeconds: number;
}

/** A decision that reserved a unit when allowed; `ticket` gives that unit back through release(). */
export interface RateTicket extends RateDecision {
  ticket: string | null;
}

export interface RateLimiter {
  /** Counts one request against `key` when it fits the limit. */
  hit(key: string, limit: number, nowMs: number): Promise<RateDecision>;
  /** hit() in one atomic step that can be undone: parallel callers never all see the last free unit. */
  take(key: string, limit: number, nowMs: number): Promise<RateTicket>;
  /** Gives back the unit of an allowed take() (the attempt turned out not to count); unknown tickets are ignored. */
  release(key: string, ticket: string): Promise<void>;
  /** The decision hit() would make, without counting anything. */
  peek(key: string, limit: number, nowMs: number): Promise<RateDecision>;
  close(): Promise<void>;
}

export const WINDOW_MS = 60_000;

function decide(limit: number, used: number, oldestMs: number | null, nowMs: number, allowed: boolean): RateDecision {
  const remaining = Math.max(0, limit - used);
  const resetSeconds = oldestMs === null ? WINDOW_MS / 1000 : Math.max(1, Math.ceil((oldestMs + WINDOW_MS - nowMs) / 1000));
  return { allowed, limit, remaining, resetSeconds };
}

/** Acceptance times of one key, oldest first; `head` skips expired entries until compaction. */
interface Log {
  times: number[];
  head: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  /** Units taken and not released, by ticket: entries of one time are alike, so a ticket names its key and time. */
  private readonly tickets = new Map<string, { key: string; at: number }>();
  private ticketSequence = 0;
  private lastSweepMs = 0;

  async hit(key: string, limit: number, nowMs: number): Promise<RateDecision> {
    return this.apply(key, limit, nowMs, true);
  }

  async peek(key: string, limit: number, nowMs: number): Promise<RateDecision> {
    return this.apply(key, limit, nowMs, false);
  }

  async take(key: string, limit: number, nowMs: number): Promise<RateTicket> {
    const decision = this.apply(key, limit, nowMs, true);
    if (!decision.allowed) return { ...decision, ticket: null };
    const ticket = String((this.ticketSequence += 1));
    this.tickets.set(ticket, { key, at: nowMs });
    return { ...decision, ticket };
  }

  async release(key: string, ticket: string): Promise<void> {
    const unit = this.tickets.get(ticket);
    if (unit?.key !== key) return;
    this.tickets.delete(ticket);
    const log = this.logs.get(key);
    const at = log ? log.times.lastIndexOf(unit.at) : -1;
    if (log && at >= log.head) log.times.splice(at, 1);
  }

  private apply(key: string, limit: number, nowMs: number, count: boolean): RateDecision {
    this.sweep(nowMs);
    let log = this.logs.get(key);
    if (!log) {
      log = { times: [], head: 0 };
      this.logs.set(key, log);
    }
    while (log.head < log.times.length && log.times[log.head] <= nowMs - WINDOW_MS) log.head += 1;
    // Compact once the expired prefix dominates, so each entry is moved O(1) times on average.
    if (log.head > 64 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    const used = log.times.length - log.head;
    const allowed = used < limit;
    if (allowed && count) log.times.push(nowMs);
    const oldest = log.head < log.times.length ? log.times[log.head] : null;
    return decide(limit, allowed && count ? used + 1 : used, oldest, nowMs, allowed);
  }

  /** Forget keys idle for a whole window, at most once per window, so memory stays bounded. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < WINDOW_MS) return;
    this.lastSweepMs = nowMs;
    for (const [ticket, unit] of this.tickets) if (unit.at <= nowMs - WINDOW_MS) this.tickets.delete(ticket);
    for (const [key, log] of this.logs) {
      if (log.times.length === 0 || log.times[log.times.length - 1] <= nowMs - WINDOW_MS) this.logs.delete(key);
    }
  }

  async close(): Promise<void> {}
}

/**
 * The same sliding log in one Lua script over a sorted set (score = acceptance time in ms), so
 * several API instances share one key's limit. Members carry a random suffix: two instances may
 * accept in the same millisecond.
 */
const REDIS_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local used = redis.call('ZCARD', key)
local fits = 0
if used < limit then
  fits = 1
end
if fits == 1 and ARGV[5] == 'count' then
  redis.call('ZADD', key, now, ARGV[3])
  redis.call('PEXPIRE', key, window)
  used = used + 1
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return { fits, used, tonumber(oldest[2] or -1) }
`;

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  private readonly instance = randomBytes(6).toString('base64url');
  private sequence = 0;
  constructor(url: string, private readonly prefix = 'quorum:rl:') {
    // Required here, not imported: only a deployment with REDIS_URL pays for loading ioredis (CLI start-up).
    const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    this.redis = new RedisClient(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.redis.defineCommand('quorumRateLog', { numberOfKeys: 1, lua: REDIS_SCRIPT });
  }

  async hit(key: string, limit: number, nowMs: number): Promise<RateDecision> {
    return this.run(key, limit, nowMs, 'count');
  }

  async peek(key: string, limit: number, nowMs: number): Promise<RateDecision> {
    return this.run(key, limit, nowMs, 'peek');
  }

  /** The script checks and counts in one step; the unit's member is the ticket. */
  async take(key: string, limit: number, nowMs: number): Promise<RateTicket> {
    const decision = await this.run(key, limit, nowMs, 'count');
    return { ...decision, ticket: decision.allowed ? decision.member : null };
  }

  async release(key: string, ticket: string): Promise<void> {
    await this.redis.zrem(this.prefix + key, ticket);
  }

  private async run(key: string, limit: number, nowMs: number, mode: 'count' | 'peek'): Promise<RateDecision & { member: string }> {
    const run = (this.redis as unknown as { quorumRateLog: (...a: unknown[]) => Promise<[number, number, number]> }).quorumRateLog;
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    const member = `${nowMs}:${this.instance}:${this.sequence}`;
    const [fits, used, oldest] = await run.call(this.redis, this.prefix + key, limit, nowMs, member, WINDOW_MS, mode);
    return { ...decide(limit, used, oldest === -1 ? null : oldest, nowMs, fits === 1), member };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

export function createRateLimiter(redisUrl: string | null): RateLimiter {
  return redisUrl ? new RedisRateLimiter(redisUrl) : new MemoryRateLimiter();
}
