import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, RedisRateLimiter, WINDOW_MS, type RateLimiter } from './rate-limiter.js';

const redisUrl = process.env.REDIS_URL;
const limiters: Array<[string, () => RateLimiter]> = [['memory', () => new MemoryRateLimiter()]];
if (redisUrl) limiters.push(['redis', () => new RedisRateLimiter(redisUrl, `quorum:test:limiter:${randomBytes(4).toString('hex')}:`)]);
const opened: RateLimiter[] = [];
afterAll(async () => Promise.all(opened.map((l) => l.close())));

/** The most accepted requests any 60-second window [start, start + 60 s) holds. */
function busiestWindow(accepted: number[]): number {
  let most = 0;
  for (let i = 0, j = 0; j < accepted.length; j++) {
    while (accepted[j] - accepted[i] >= WINDOW_MS) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describe.each(limiters)('%s limiter', (_name, make) => {
  const limiter = () => {
    const l = make();
    opened.push(l);
    return l;
  };

  it('lets no burst at the end of a second double the limit within 59 s', async () => {
    const l = limiter();
    const start = Date.UTC(2026, 2, 2, 9, 0, 0, 999);
    const limit = 10;
    const first = await Promise.all(Array.from({ length: limit }, () => l.hit('burst', limit, start)));
    expect(first.every((d) => d.allowed)).toBe(true);
    // 59.001 s later the next second has begun 59 times; the burst is still inside the minute.
    const early = await l.hit('burst', limit, start + 59_001);
    expect(early.allowed).toBe(false);
    expect(early.resetSeconds).toBe(1);
    const onTime = await l.hit('burst', limit, start + WINDOW_MS);
    expect(onTime).toMatchObject({ allowed: true, remaining: limit - 1 });
  });

  it('peeks without counting', async () => {
    const l = limiter();
    const now = Date.UTC(2026, 2, 2, 9, 0, 0, 0);
    for (let i = 0; i < 5; i++) expect(await l.peek('peek', 1, now)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await l.hit('peek', 1, now)).allowed).toBe(true);
    expect(await l.peek('peek', 1, now + 1)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60 });
  });

  it('takes units atomically: of parallel takes exactly the limit is allowed, each with its own ticket', async () => {
    const l = limiter();
    const now = Date.UTC(2026, 2, 2, 9, 0, 0, 0);
    const taken = await Promise.all(Array.from({ length: 12 }, () => l.take('take', 4, now)));
    expect(taken.filter((d) => d.allowed)).toHaveLength(4);
    expect(taken.filter((d) => !d.allowed).every((d) => d.ticket === null)).toBe(true);
    expect(await l.peek('take', 4, now)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('releases a taken unit, once: the key has room again, a second release of the same ticket frees nothing more', async () => {
    const l = limiter();
    const now = Date.UTC(2026, 2, 2, 9, 0, 0, 0);
    const first = await l.take('release', 2, now);
    const second = await l.take('release', 2, now);
    expect((await l.take('release', 2, now + 1)).allowed).toBe(false);
    await l.release('release', first.ticket!);
    await l.release('release', first.ticket!);
    expect(await l.peek('release', 2, now + 2)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await l.take('release', 2, now + 2)).allowed).toBe(true);
    expect((await l.take('release', 2, now + 3)).allowed).toBe(false);
    await l.release('release', second.ticket!);
    expect(await l.peek('release', 2, now + 4)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('never holds more than the limit in any 60-second window (random arrivals)', async () => {
    const l = limiter();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 120 }), async (limit, gaps) => {
        const key = `prop-${run++}`;
        let now = Date.UTC(2026, 2, 2, 9, 0, 0, 0);
        const accepted: number[] = [];
        for (const gap of gaps) {
          now += gap;
          if ((await l.hit(key, limit, now)).allowed) accepted.push(now);
        }
        expect(busiestWindow(accepted)).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 60 },
    );
  });
});
