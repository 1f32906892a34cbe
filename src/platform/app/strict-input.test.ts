import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { FAILED_AUTH_PER_MIN } from './auth.js';
import { errorResponses, ok, successEnvelope } from './envelope.js';

/** A body route for the NUL rule (few real body routes exist yet; the rule is the platform's). */
async function probeRoutes(app: FastifyInstance) {
  app.post(
    '/_probe/store',
    {
      config: { scope: null },
      schema: {
        hide: true,
        body: Type.Object({ note: Type.String(), tags: Type.Optional(Type.Array(Type.String())), meta: Type.Optional(Type.Object({}, { additionalProperties: true })) }),
        response: { 200: successEnvelope(Type.Object({ stored: Type.Boolean() })), ...errorResponses('VALIDATION_ERROR') },
      },
    },
    async (request) => {
      // Reaches Postgres as jsonb: a NUL here would be a 500.
      await app.ctx.pool.query('SELECT $1::jsonb', [JSON.stringify(request.body)]);
      return ok({ stored: true });
    },
  );
}

let t: TestApp;
let token: string;
const formId = '01964f6e-2c1a-7b3e-9f00-5a1d2c3b4e5f';
beforeAll(async () => {
  t = await startTestApp({ v1Plugins: [probeRoutes] });
  ({ token } = await t.tenant());
});
afterAll(async () => t?.close());

function expectValidation(res: { statusCode: number; json(): any }, path: string): void {
  expect(res.statusCode).toBe(400);
  expect(res.json().error.code).toBe('VALIDATION_ERROR');
  expect(res.json().error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
}

describe('query numbers: only plain decimal integers', () => {
  const bad = ['Infinity', '-Infinity', '1e400', '1e2', 'NaN', '0x10', '0b11', '0o7', '%205%20', '+5', '1.0', '5.', '', '00', '1_0', '٥', '99999999999999999999'];
  for (const route of ['/v1/forms', '/v1/events', `/v1/forms/${formId}/responses`]) {
    it(`refuses non-decimal limits on ${route} with 400 VALIDATION_ERROR`, async () => {
      for (const value of bad) expectValidation(await t.get(token, `${route}?limit=${value}`), 'limit');
    });
  }

  it('refuses them for page too, and a repeated number', async () => {
    for (const value of ['-Infinity', 'Infinity', '0x1']) expectValidation(await t.get(token, `/v1/forms?page=${value}`), 'page');
    expectValidation(await t.get(token, '/v1/forms?limit=5&limit=6'), 'limit');
  });

  it('still reads plain decimals and applies their bounds', async () => {
    expect((await t.get(token, '/v1/forms?limit=5&page=2')).json().meta).toMatchObject({ page: 2, limit: 5 });
    expectValidation(await t.get(token, '/v1/forms?limit=101'), 'limit');
    expectValidation(await t.get(token, '/v1/forms?limit=0'), 'limit');
    expectValidation(await t.get(token, '/v1/forms?page=-1'), 'page');
  });
});

describe('NUL bytes never reach Postgres', () => {
  it('refuses NUL in a dim value, a dim name or any query value', async () => {
    expectValidation(await t.get(token, `/v1/forms/${formId}/responses?dim.course=a%00b`), 'dim.course');
    expectValidation(await t.get(token, `/v1/forms/${formId}/responses?dim.a%00=x`), 'query');
    expectValidation(await t.get(token, '/v1/events?type=ping%00'), 'type');
    expectValidation(await t.get(token, '/v1/events?cursor=%00'), 'cursor');
  });

  it('refuses NUL anywhere in a JSON body, keys included', async () => {
    const send = (payload: string) => t.request(token, { method: 'POST', url: '/v1/_probe/store', payload, headers: { 'content-type': 'application/json' } });
    expectValidation(await send('{"note":"a\\u0000b"}'), 'note');
    expectValidation(await send('{"note":"x","tags":["ok","\\u0000"]}'), 'tags.1');
    expectValidation(await send('{"note":"x","meta":{"deep":{"k\\u0000":1}}}'), 'meta.deep.k\u0000');
    expect((await send('{"note":"a\\\\u0000b","meta":{"x":[[["fine"]]]}}')).statusCode).toBe(200);
  });

  it('survives deeply nested bodies without overflowing the stack', async () => {
    const deep = `{"note":"x","meta":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const res = await t.request(token, { method: 'POST', url: '/v1/_probe/store', payload: deep, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details.fields[0]).toMatchObject({ code: 'invalid_value' });
  });
});

describe('unknown query parameters are refused everywhere', () => {
  it('on /me, /forms/{id} and /responses/{id}', async () => {
    for (const url of ['/v1/me?x=1', `/v1/forms/${formId}?expand=all`, `/v1/responses/${formId}?include=answers`]) {
      expectValidation(await t.get(token, url), url.includes('x=1') ? 'x' : url.includes('expand') ? 'expand' : 'include');
    }
    expect((await t.get(token, '/v1/me')).statusCode).toBe(200);
  });
});

describe('unknown /v1 routes', () => {
  it('carry the rate-limit headers of the valid key that asked', async () => {
    const res = await t.get(token, '/v1/no-such-route');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect(res.headers['ratelimit-limit']).toBe('10000');
    expect(res.headers['ratelimit-remaining']).toMatch(/^\d+$/);
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answer 404 NOT_FOUND without a key or with a bad one, not 401 (docs/contract.md: an unknown route is 404)', async () => {
    for (const credentials of [null, 'qk_000000000000_0000000000000000000000000000000000000000000', 'not-a-key']) {
      const res = await t.get(credentials, '/v1/no-such-route');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'No route GET /v1/no-such-route.', details: null } });
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('still spend the failed-authentication budget of the address, so keys cannot be probed there for free', async () => {
    const probe = await startTestApp();
    try {
      let last = await probe.get('qk_000000000000_0000000000000000000000000000000000000000000', '/v1/no-such-route');
      for (let i = 0; i < FAILED_AUTH_PER_MIN && last.statusCode === 404; i++) last = await probe.get('qk_000000000000_0000000000000000000000000000000000000000000', '/v1/no-such-route');
      expect(last.statusCode).toBe(429);
      expect(last.json().error.code).toBe('RATE_LIMITED');
    } finally {
      await probe.close();
    }
  });
});

describe('GET /v1/events?since= with a leap second', () => {
  it('is read as the next second, not a 500', async () => {
    const res = await t.get(token, '/v1/events?since=2026-06-30T23:59:60Z');
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toMatchObject({ total: 0 });
  });
});

describe('an empty cursor', () => {
  it('is 400 INVALID_CURSOR on every cursor route', async () => {
    for (const url of ['/v1/events?cursor=', `/v1/forms/${formId}/responses?cursor=`]) {
      const res = await t.get(token, url);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('INVALID_CURSOR');
    }
  });
});
