import { Redis } from 'ioredis';

/**
 * Rolling-minute limiter at one-second granularity: the count is the sum of the last 60
 * one-second buckets, so a burst frees its slots exactly 60 s later (no fixed-window reset
 * that would allow double the limit across a boundary), with O(60) memory per key.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until at least one more request is allowed (for ratelimit-reset / retry-after). */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request against `key` when it fits the limit. */
  hit(key: string, limit: number, nowMs: number): Promise<RateDecision>;
  close(): Promise<void>;
}

const WINDOW_S = 60;

interface Buckets {
  seconds: Int32Array;
  counts: Int32Array;
}

function decide(limit: number, used: number, oldestSecond: number | null, nowS: number, counted: boolean): RateDecision {
  const allowed = counted;
  const remaining = Math.max(0, limit - used);
  const resetSeconds = oldestSecond === null ? WINDOW_S : Math.max(1, oldestSecond + WINDOW_S - nowS);
  return { allowed, limit, remaining, resetSeconds };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly keys = new Map<string, Buckets>();
  private lastSweepS = 0;

  async hit(key: string, limit: number, nowMs: number): Promise<RateDecision> {
    const nowS = Math.floor(nowMs / 1000);
    this.sweep(nowS);
    let buckets = this.keys.get(key);
    if (!buckets) {
      buckets = { seconds: new Int32Array(WINDOW_S).fill(-1), counts: new Int32Array(WINDOW_S) };
      this.keys.set(key, buckets);
    }
    let used = 0;
    let oldest: number | null = null;
    for (let i = 0; i < WINDOW_S; i++) {
      const second = buckets.seconds[i];
      if (second > nowS - WINDOW_S && buckets.counts[i] > 0) {
        used += buckets.counts[i];
        if (oldest === null || second < oldest) oldest = second;
      }
    }
    const fits = used < limit;
    if (fits) {
      const slot = nowS % WINDOW_S;
      if (buckets.seconds[slot] !== nowS) {
        buckets.seconds[slot] = nowS;
        buckets.counts[slot] = 0;
      }
      buckets.counts[slot] += 1;
      used += 1;
      oldest ??= nowS;
    }
    return decide(limit, used, oldest, nowS, fits);
  }

  /** Forget keys idle for a whole window, at most once per window, so memory stays bounded. */
  private sweep(nowS: number): void {
    if (nowS - this.lastSweepS < WINDOW_S) return;
    this.lastSweepS = nowS;
    for (const [key, buckets] of this.keys) {
      if (Math.max(...buckets.seconds) <= nowS - WINDOW_S) this.keys.delete(key);
    }
  }

  async close(): Promise<void> {}
}

/**
 * The same algorithm in one Lua script, so several API instances share one key's limit.
 * A hash per key maps second → count; fields older than the window are deleted as they are read.
 */
const REDIS_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local window = 60
local fields = redis.call('HGETALL', key)
local used = 0
local oldest = -1
for i = 1, #fields, 2 do
  local second = tonumber(fields[i])
  if second <= now - window then
    redis.call('HDEL', key, fields[i])
  else
    used = used + tonumber(fields[i + 1])
    if oldest == -1 or second < oldest then oldest = second end
  end
end
local fits = 0
if used < limit then
  fits = 1
  redis.call('HINCRBY', key, tostring(now), 1)
  redis.call('EXPIRE', key, window + 1)
  used = used + 1
  if oldest == -1 then oldest = now end
end
return { fits, used, oldest }
`;

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  constructor(url: string, private readonly prefix = 'quorum:rl:') {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.redis.defineCommand('quorumRateHit', { numberOfKeys: 1, lua: REDIS_SCRIPT });
  }

  async hit(key: string, limit: number, nowMs: number): Promise<RateDecision> {
    const nowS = Math.floor(nowMs / 1000);
    const run = (this.redis as unknown as { quorumRateHit: (...a: unknown[]) => Promise<[number, number, number]> }).quorumRateHit;
    const [fits, used, oldest] = await run.call(this.redis, this.prefix + key, limit, nowS);
    return decide(limit, used, oldest === -1 ? null : oldest, nowS, fits === 1);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

export function createRateLimiter(redisUrl: string | null): RateLimiter {
  return redisUrl ? new RedisRateLimiter(redisUrl) : new MemoryRateLimiter();
}
