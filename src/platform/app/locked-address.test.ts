import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { FAILED_AUTH_PER_MIN } from './auth.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const base62 = (n: number) => randomBytes(n * 2).toString('base64').replace(/[^0-9A-Za-z]/g, '').slice(0, n).padEnd(n, 'x');
const guess = () => `qk_${base62(12)}_${base62(43)}`;

describe('an address over its failed-authentication budget', () => {
  it('is refused before any database lookup for key ids the cache cannot answer', async () => {
    const ip = '203.0.113.150';
    for (let i = 0; i < FAILED_AUTH_PER_MIN; i++) {
      expect((await t.request(guess(), { method: 'GET', url: '/v1/me', remoteAddress: ip })).statusCode).toBe(401);
    }
    let checkouts = 0;
    const count = () => (checkouts += 1);
    t.ctx.pool.on('acquire', count);
    const answers = [];
    for (let i = 0; i < 100; i++) answers.push((await t.request(guess(), { method: 'GET', url: '/v1/me', remoteAddress: ip })).statusCode);
    t.ctx.pool.off('acquire', count);
    expect(new Set(answers)).toEqual(new Set([429]));
    expect(checkouts).toBe(0);
  });

  it('still lets a key the cache already verified through (shared addresses are not locked out by others)', async () => {
    const ip = '203.0.113.151';
    const { token } = await t.tenant();
    expect((await t.request(token, { method: 'GET', url: '/v1/me', remoteAddress: '198.51.100.20' })).statusCode).toBe(200);
    for (let i = 0; i < FAILED_AUTH_PER_MIN; i++) await t.request(guess(), { method: 'GET', url: '/v1/me', remoteAddress: ip });
    expect((await t.request(token, { method: 'GET', url: '/v1/me', remoteAddress: ip })).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await t.request(guess(), { method: 'GET', url: '/v1/me', remoteAddress: ip })).statusCode).toBe(401);
  });
});
