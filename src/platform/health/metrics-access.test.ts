import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';

const METRICS_TOKEN = 'metrics-token-0123456789';
let open: TestApp;
let guarded: TestApp;
/** Behind TRUST_PROXY=true, where X-Forwarded-For decides request.ip. */
let proxied: TestApp;
beforeAll(async () => {
  [open, guarded, proxied] = await Promise.all([startTestApp(), startTestApp({ config: { metricsToken: METRICS_TOKEN } }), startTestApp({ config: { trustProxy: true } })]);
});
afterAll(async () => Promise.all([open?.close(), guarded?.close(), proxied?.close()]));

const scrape = (t: TestApp, remoteAddress: string, authorization?: string, headers: Record<string, string> = {}) =>
  t.request(null, { method: 'GET', url: '/metrics', remoteAddress, headers: { ...headers, ...(authorization ? { authorization } : {}) } });

describe('/metrics', () => {
  it('answers loopback clients, v4 and v6', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect((await scrape(open, address)).statusCode).toBe(200);
  });

  it('refuses any other client with 401 in the envelope when no METRICS_TOKEN is set, whatever it sends', async () => {
    for (const auth of [undefined, `Bearer ${METRICS_TOKEN}`, 'Bearer ']) {
      const res = await scrape(open, '203.0.113.5', auth);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
      expect(res.body).not.toContain('quorum_http');
    }
  });

  it('opens to the METRICS_TOKEN bearer, and only to it, when set', async () => {
    expect((await scrape(guarded, '203.0.113.5', `Bearer ${METRICS_TOKEN}`)).statusCode).toBe(200);
    for (const auth of [undefined, `Bearer ${METRICS_TOKEN}x`, `Bearer ${METRICS_TOKEN.slice(1)}`, `Basic ${METRICS_TOKEN}`]) {
      expect((await scrape(guarded, '203.0.113.5', auth)).statusCode).toBe(401);
    }
    expect((await scrape(guarded, '127.0.0.1')).statusCode).toBe(200);
  });

  it('believes no spoofed X-Forwarded-For, even behind TRUST_PROXY=true', async () => {
    for (const t of [open, proxied]) {
      expect((await scrape(t, '203.0.113.5', undefined, { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(401);
    }
  });

  it('refuses a remote client that a proxy on this machine relays', async () => {
    for (const t of [open, proxied]) {
      expect((await scrape(t, '127.0.0.1', undefined, { 'x-forwarded-for': '203.0.113.5' })).statusCode).toBe(401);
      expect((await scrape(t, '127.0.0.1', undefined, { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(200);
    }
  });

  it('keeps /docs public', async () => {
    expect((await open.request(null, { method: 'GET', url: '/docs/', remoteAddress: '203.0.113.5' })).statusCode).toBeLessThan(400);
  });
});
