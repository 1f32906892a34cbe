import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { buildApp } from './build-app.js';
import { RedisRateLimiter } from './rate-limiter.js';

const redisUrl = process.env.REDIS_URL;

// Runs wherever Redis is configured (CI sets REDIS_URL when a server answers); the in-memory
// limiter cannot be shared across processes by design.
describe.runIf(redisUrl)('two API instances share one key limit through Redis', () => {
  const prefix = `quorum:test:shared:${randomBytes(4).toString('hex')}:`;
  let t: TestApp;
  let second: FastifyInstance;
  let secondLimiter: RedisRateLimiter;

  beforeAll(async () => {
    t = await startTestApp({ limiter: new RedisRateLimiter(redisUrl!, prefix) });
    secondLimiter = new RedisRateLimiter(redisUrl!, prefix);
    second = await buildApp({ ...t.ctx, limiter: secondLimiter });
  });
  afterAll(async () => {
    await second?.close();
    await secondLimiter?.close();
    await t?.close();
  });

  it('counts requests made on either instance against the same limit', async () => {
    const company = await t.company();
    const { token } = await t.key(company.id, { rateLimitPerMin: 3 });
    const headers = { authorization: `Bearer ${token}` };
    const statuses = [
      (await t.app.inject({ method: 'GET', url: '/v1/me', headers })).statusCode,
      (await second.inject({ method: 'GET', url: '/v1/me', headers })).statusCode,
      (await t.app.inject({ method: 'GET', url: '/v1/me', headers })).statusCode,
    ];
    expect(statuses).toEqual([200, 200, 200]);
    const blocked = await second.inject({ method: 'GET', url: '/v1/me', headers });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['ratelimit-remaining']).toBe('0');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
