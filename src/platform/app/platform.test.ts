import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { ApiError } from '../../lib/errors.js';
import { ERROR_STATUS } from './error-status.js';
import { errorResponses, ok, successEnvelope } from './envelope.js';
import { FAILED_AUTH_PER_MIN } from './auth.js';
import { hashSecret } from '../../lib/secret-token.js';

/** Probe routes that exercise the platform's body handling and error rendering. */
async function probeRoutes(app: FastifyInstance) {
  app.post(
    '/_probe/echo',
    {
      config: { scope: null },
      schema: {
        hide: true,
        body: Type.Object({ name: Type.String({ minLength: 1 }), count: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false }),
        response: { 200: successEnvelope(Type.Object({ name: Type.String() })), ...errorResponses('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE') },
      },
    },
    async (request) => ok({ name: (request.body as { name: string }).name }),
  );
  app.get('/_probe/boom', { config: { scope: null }, schema: { hide: true } }, async () => {
    throw new Error('secret internal detail');
  });
  app.get('/_probe/quota', { config: { scope: null }, schema: { hide: true } }, async () => {
    throw new ApiError('QUOTA_EXCEEDED', 'Monthly quota exhausted.', { limit: 1, used: 1 });
  });
}

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ v1Plugins: [probeRoutes] });
  ({ token } = await t.tenant());
});
afterAll(async () => t?.close());

describe('envelope and errors', () => {
  it('wraps success in { success: true, data }', async () => {
    const res = await t.post(token, '/v1/_probe/echo', { name: 'x' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { name: 'x' } });
  });

  it('answers an unknown route with 404 NOT_FOUND in the envelope', async () => {
    for (const url of ['/v1/nope', '/elsewhere']) {
      const res = await t.get(token, url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String), details: null } });
    }
  });

  it('turns malformed JSON into VALIDATION_ERROR with a field entry', async () => {
    const res = await t.request(token, { method: 'POST', url: '/v1/_probe/echo', payload: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'body', code: 'invalid_json' }] } });
  });

  it('turns a non-JSON content type into VALIDATION_ERROR', async () => {
    const res = await t.request(token, { method: 'POST', url: '/v1/_probe/echo', payload: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'content-type' }] } });
  });

  it('reports every invalid field with path, code and message', async () => {
    const res = await t.post(token, '/v1/_probe/echo', { count: -1, extra: true });
    expect(res.statusCode).toBe(400);
    const fields = res.json().error.details.fields;
    expect(fields).toEqual(
      expect.arrayContaining([
        { path: 'name', code: 'required', message: expect.any(String) },
        { path: 'count', code: 'too_small', message: expect.any(String) },
        { path: 'extra', code: 'unknown_field', message: expect.any(String) },
      ]),
    );
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.post(token, '/v1/_probe/echo', { name: 'x'.repeat(1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('hides internal failures behind 500 INTERNAL_ERROR', async () => {
    const res = await t.get(token, '/v1/_probe/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('INTERNAL_ERROR');
    expect(res.body).not.toContain('secret internal detail');
  });

  it('renders ApiError with its status and details', async () => {
    const res = await t.get(token, '/v1/_probe/quota');
    expect(res.statusCode).toBe(ERROR_STATUS.QUOTA_EXCEEDED);
    expect(res.json().error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { limit: 1, used: 1 } });
  });
});

describe('x-request-id', () => {
  it('is echoed when the client sends one and generated otherwise, on success and error', async () => {
    const echoed = await t.get(token, '/v1/me', { 'x-request-id': 'abc-123' });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const generated = await t.get(null, '/v1/me');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const junk = await t.get(token, '/v1/me', { 'x-request-id': 'bad id with spaces' });
    expect(junk.headers['x-request-id']).not.toBe('bad id with spaces');
  });
});

describe('rate limit per key', () => {
  it('sends ratelimit headers on every answer and 429 RATE_LIMITED with retry-after past the limit', async () => {
    const company = await t.company();
    const { token: limited } = await t.key(company.id, { rateLimitPerMin: 3 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await t.get(limited, '/v1/me'));
    expect(answers.slice(0, 3).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((r) => r.headers['ratelimit-limit'])).toEqual(['3', '3', '3', '3']);
    expect(answers.map((r) => r.headers['ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    const last = answers[3];
    expect(last.statusCode).toBe(429);
    expect(last.json().error.code).toBe('RATE_LIMITED');
    expect(Number(last.headers['retry-after'])).toBe(60);
  });

  it('frees slots on a rolling minute, not a fixed window', async () => {
    const company = await t.company();
    const { token: limited } = await t.key(company.id, { rateLimitPerMin: 2 });
    expect((await t.get(limited, '/v1/me')).statusCode).toBe(200);
    t.clock.advance(30_000);
    expect((await t.get(limited, '/v1/me')).statusCode).toBe(200);
    t.clock.advance(20_000);
    const blocked = await t.get(limited, '/v1/me');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBe(10);
    t.clock.advance(10_000);
    expect((await t.get(limited, '/v1/me')).statusCode).toBe(200);
    expect((await t.get(limited, '/v1/me')).statusCode).toBe(429);
  });

  it('counts two keys separately', async () => {
    const company = await t.company();
    const a = await t.key(company.id, { rateLimitPerMin: 1 });
    const b = await t.key(company.id, { rateLimitPerMin: 1 });
    expect((await t.get(a.token, '/v1/me')).statusCode).toBe(200);
    expect((await t.get(b.token, '/v1/me')).statusCode).toBe(200);
    expect((await t.get(a.token, '/v1/me')).statusCode).toBe(429);
  });
});

describe('failed authentication is limited per client address', () => {
  it(`answers 429 to failures past ${FAILED_AUTH_PER_MIN} a minute from one address, while valid keys from it still work`, async () => {
    const ip = '203.0.113.77';
    const failures = [];
    for (let i = 0; i < FAILED_AUTH_PER_MIN; i++) {
      failures.push((await t.request('qk_bad', { method: 'GET', url: '/v1/me', remoteAddress: ip })).statusCode);
    }
    expect(new Set(failures)).toEqual(new Set([401]));
    const blocked = await t.request(`qk_AAAAAAAAAAAA_${'b'.repeat(43)}`, { method: 'GET', url: '/v1/me', remoteAddress: ip });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Someone else's failures behind a shared address must not lock out a valid key.
    expect((await t.request(token, { method: 'GET', url: '/v1/me', remoteAddress: ip })).statusCode).toBe(200);
    expect((await t.request('qk_bad', { method: 'GET', url: '/v1/me', remoteAddress: '203.0.113.78' })).statusCode).toBe(401);
    t.clock.advance(60_000);
    expect((await t.request('qk_bad', { method: 'GET', url: '/v1/me', remoteAddress: ip })).statusCode).toBe(401);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says so, so a caller cannot burn another address', async () => {
    const ip = '203.0.113.90';
    for (let i = 0; i < FAILED_AUTH_PER_MIN; i++) {
      await t.request('qk_bad', { method: 'GET', url: '/v1/me', remoteAddress: ip, headers: { 'x-forwarded-for': '198.51.100.1' } });
    }
    const victim = await t.request('qk_bad', { method: 'GET', url: '/v1/me', remoteAddress: '198.51.100.1' });
    expect(victim.statusCode).toBe(401);
    const spoofer = await t.request('qk_bad', { method: 'GET', url: '/v1/me', remoteAddress: ip, headers: { 'x-forwarded-for': '198.51.100.2' } });
    expect(spoofer.statusCode).toBe(429);
  });

  it('remembers an unknown key id for the cache period instead of looking it up on every attempt', async () => {
    const company = await t.company();
    const secret = 'c'.repeat(43);
    const probe = `qk_ZZZZZZZZZZZZ_${secret}`;
    expect((await t.get(probe, '/v1/me')).statusCode).toBe(401);
    // The key appears behind the cache's back: within the period the remembered miss still answers.
    await t.ctx.pool.query(
      `INSERT INTO api_keys (id, company_id, key_id, secret_hash, name, scopes, rate_limit_per_min, created_at)
       VALUES ($1, $2, 'ZZZZZZZZZZZZ', $3, 'late', '{}', 60, now())`,
      [t.ctx.newId(), company.id, hashSecret(secret)],
    );
    expect((await t.get(probe, '/v1/me')).statusCode).toBe(401);
    t.clock.advance(5_000);
    expect((await t.get(probe, '/v1/me')).statusCode).toBe(200);
  });
});

describe('operational endpoints', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.get(null, '/healthz')).json()).toEqual({ success: true, data: { status: 'ok' } });
    expect((await t.get(null, '/readyz')).json()).toEqual({ success: true, data: { status: 'ready' } });
  });

  it('exposes request counts, latency by route and status, and the job queue depth at /metrics', async () => {
    await t.get(token, '/v1/me');
    const res = await t.get(null, '/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/quorum_http_requests_total\{method="GET",route="\/v1\/me",status="200"\} \d+/);
    expect(res.body).toContain('quorum_http_request_duration_seconds_bucket');
    expect(res.body).toContain('# TYPE quorum_job_queue_depth gauge');
  });
});
