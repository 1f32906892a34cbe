import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../../test/harness.js';
import { ContractChecker, type OpenApiDocument } from '../../../test/contract.js';
import { ERROR_STATUS } from './error-status.js';
import { EVENT_TYPES } from '../../features/events/catalog.js';
import { createContext } from '../context.js';
import { buildApp } from './build-app.js';

let t: TestApp;
let doc: OpenApiDocument & Record<string, any>;
beforeAll(async () => {
  t = await startTestApp();
  const res = await t.get(null, '/v1/openapi.json');
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => t?.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item as Record<string, any>).map(([method, op]) => ({ path, method, op })));

describe('GET /v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the bearer scheme and the server URL', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([expect.objectContaining({ url: t.ctx.config.publicApiUrl })]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.ErrorEnvelope).toBeDefined();
  });

  it('documents paths relative to the /v1 server URL and hides operational routes', () => {
    expect(Object.keys(doc.paths)).toContain('/me');
    for (const path of Object.keys(doc.paths)) expect(path.startsWith('/v1')).toBe(false);
    for (const hidden of ['/healthz', '/readyz', '/metrics', '/openapi.json']) expect(doc.paths[hidden]).toBeUndefined();
  });

  it("does not claim /readyz's SERVICE_UNAVAILABLE: health is no API route, and the codes are the spec's", () => {
    expect(JSON.stringify(doc)).not.toContain('SERVICE_UNAVAILABLE');
  });

  it('declares retry-after on every 500 (a lost database connection says when to repeat)', () => {
    for (const { path, method, op } of operations()) {
      expect(op.responses[500].headers['retry-after'], `${method.toUpperCase()} ${path}`).toEqual({ $ref: '#/components/headers/RetryAfter' });
    }
  });

  it('gives every operation an operationId, a summary, a 2xx schema and the 401 (when it takes a key), 429 and 500 errors', () => {
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toEqual(expect.any(String));
      expect(op.summary, where).toEqual(expect.any(String));
      expect(Object.keys(op.responses).some((s) => s.startsWith('2')), where).toBe(true);
      // The respondent API (/r/v1) takes no key, so it never answers 401.
      const keyed = op.security.length > 0;
      expect(keyed, where).toBe(!path.startsWith('/r/v1/'));
      if (!keyed) expect(op.responses[ERROR_STATUS.UNAUTHORIZED], where).toBeUndefined();
      for (const status of [...(keyed ? [ERROR_STATUS.UNAUTHORIZED] : []), ERROR_STATUS.RATE_LIMITED, ERROR_STATUS.INTERNAL_ERROR]) {
        expect(op.responses[status], `${where} ${status}`).toBeDefined();
      }
    }
  });

  it('has unique operation ids', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the contract checker used on every test answer', () => {
  it('refuses an answer that does not match its documented schema, and an undocumented status', () => {
    const checker = new ContractChecker(doc);
    expect(() => checker.check('GET', '/v1/me', 200, JSON.stringify({ success: true, data: { company: {} } }))).toThrow(/does not match/);
    expect(() => checker.check('GET', '/v1/me', 418, '{}')).toThrow(/does not list/);
    expect(() => checker.check('GET', '/v1/me', 401, JSON.stringify({ success: false, error: { code: 'UNAUTHORIZED', message: 'x', details: null } }))).not.toThrow();
  });
});

describe('GET /docs', () => {
  it('serves the interactive reference without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger-ui');
    const spec = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.json().openapi).toBe('3.1.0');
  });
});

describe('declared answers', () => {
  it('declare x-request-id on every answer, the rate-limit headers on authenticated ones and retry-after on 429', () => {
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        const names = Object.keys(response.headers ?? {});
        expect(names, `${method} ${path} ${status}`).toEqual(expect.arrayContaining(['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']));
        if (status === '429') expect(names).toContain('retry-after');
      }
    }
  });

  it('describe the 200 of GET /me and the VALIDATION_ERROR details shape', () => {
    expect((doc.paths['/me'].get.responses as Record<string, { description?: string }>)['200'].description).toBe('The company and key behind the token');
    expect(doc.components.schemas.ValidationDetails.properties.fields.items.required).toEqual(['path', 'code', 'message']);
  });
});

describe('what a validating proxy and a generated client need', () => {
  it('describes the multipart body of both upload routes', () => {
    for (const path of ['/r/v1/invites/{token}/files', '/r/v1/forms/{companySlug}/{formSlug}/files']) {
      expect((doc.paths[path] as any).post.requestBody, path).toMatchObject({
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string' } } } } },
      });
    }
  });

  it('declares the dim.<key> filters as one exploded object parameter on the responses scan, statistics and report', () => {
    for (const path of ['/forms/{id}/responses', '/forms/{id}/statistics', '/forms/{id}/report']) {
      const dims = (doc.paths[path] as any).get.parameters.find((parameter: { name: string }) => parameter.name === 'dims');
      expect(dims, path).toMatchObject({ in: 'query', required: false, schema: { type: 'object', additionalProperties: { type: 'string' } } });
      // Query parameters default to style form, explode true: each entry is sent as its own name=value.
      expect([dims.style ?? 'form', dims.explode ?? true], path).toEqual(['form', true]);
      expect(new RegExp(dims.schema.propertyNames.pattern).test('dim.course'), path).toBe(true);
    }
  });

  it('declares 413 PAYLOAD_TOO_LARGE on every operation (headers or a URL over 16 KiB), GET and revoke included', () => {
    for (const { path, method, op } of operations()) expect(op.responses[ERROR_STATUS.PAYLOAD_TOO_LARGE], `${method.toUpperCase()} ${path}`).toBeDefined();
  });

  it('references the roster import body instead of repeating it inline', () => {
    expect((doc.paths['/enrollments/import'] as any).post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RosterImport' });
  });

  it('describes the event catalog in webhooks: each type with its envelope, its data schema and the signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const operation = doc.webhooks[type].post;
      const envelope = operation.requestBody.content['application/json'].schema;
      expect(envelope.properties.type, type).toEqual({ const: type });
      expect(envelope.required, type).toEqual(['id', 'type', 'version', 'occurredAt', 'companyId', 'data']);
      expect(Object.keys(envelope.properties.data.properties ?? {}).length, type).toBeGreaterThan(0);
      expect(operation.parameters.map((header: { name: string }) => header.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
    expect(doc.webhooks['response.created'].post.requestBody.content['application/json'].schema.properties.data.required).toEqual(
      expect.arrayContaining(['formId', 'responseId', 'inviteId', 'answers', 'dims', 'orgSource']),
    );
  });

  it('names PUBLIC_API_URL as the server, and its root for the respondent API', async () => {
    const ctx = await createContext(testConfig('postgres://unused@127.0.0.1:1/unused', { publicApiUrl: 'https://surveys.school.example/api/v1' }));
    const app = await buildApp(ctx);
    await app.ready();
    const other = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    await app.close();
    await ctx.close();
    expect(other.servers).toEqual([expect.objectContaining({ url: 'https://surveys.school.example/api/v1' })]);
    expect(other.paths['/r/v1/invites/{token}'].get.servers).toEqual([expect.objectContaining({ url: 'https://surveys.school.example/api' })]);
  });
});
