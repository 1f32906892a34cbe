import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../../test/harness.js';
import { loadRouteFixtures, type RouteRequest } from '../../../test/route-fixtures.js';
import type { OpenApiDocument } from '../../../test/contract.js';
import { hasScope, SCOPES, type Scope } from '../../features/keys/scopes.js';
import { revokeKey } from '../../features/keys/revoke-key.js';
import { features } from '../../features/index.js';
import { buildApp } from './build-app.js';
import { createContext } from '../context.js';

/**
 * The authentication, scope, tenancy and rate-limit suite, generated from the OpenAPI document:
 * every operation that declares a security requirement is called without a key, with malformed,
 * unknown, revoked and expired keys, without its scope, and on another company's record (its
 * feature's route-fixtures.ts names a real one). A new authenticated route is covered by being
 * published; nobody opts in, and a route without its scope or its fixture fails here.
 */
interface Operation {
  method: string;
  path: string;
  scope: Scope | null;
  params: string[];
}

/** The document is built without a database (as scripts/lint-openapi.ts does) so the operations are known when tests are collected. */
async function publishedOperations(): Promise<Operation[]> {
  const ctx = await createContext(testConfig('postgres://unused@127.0.0.1:1/unused'));
  const app = await buildApp(ctx);
  await app.ready();
  const document = app.swagger() as unknown as OpenApiDocument & { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
  await app.close();
  await ctx.close();
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => operation.security?.some((requirement) => 'bearerAuth' in requirement))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        scope: (operation.security!.find((requirement) => 'bearerAuth' in requirement)!.bearerAuth[0] as Scope | undefined) ?? null,
        params: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]),
      })),
  );
}

const operations = await publishedOperations();
const fixtures = await loadRouteFixtures(features.map((feature) => feature.name));
const operationName = (operation: Operation) => `${operation.method} ${operation.path}`;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
}

/** The fixture's request on a record of `companyId`; a route on a record without a fixture has no meaningful 404 test, so it fails. */
async function requestFor(operation: Operation, companyId: string): Promise<{ url: string; body?: object }> {
  const fixture = fixtures[operationName(operation)];
  if (!fixture && operation.params.length) throw new Error(`${operationName(operation)} has no fixture in its feature's route-fixtures.ts.`);
  const { params, query, body }: RouteRequest = fixture ? await fixture(t, companyId) : { params: {} };
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params[name]));
  return { url: `/v1${path}${query ? `?${query}` : ''}`, body };
}

// Failed authentications are limited per client address, and every test starts at the same time:
// each operation's probes come from an address of its own so they never share that budget.
const call = (operation: Operation, token: string | null, { url, body }: { url: string; body?: object }) =>
  t.request(token, {
    method: operation.method as 'GET',
    url,
    remoteAddress: `10.1.${operations.indexOf(operation)}.1`,
    ...(operation.method === 'GET' ? {} : { payload: body ?? {} }),
  });

it('finds the authenticated operations in the document', () => {
  expect(operations.length).toBeGreaterThanOrEqual(features.filter((feature) => feature.routes).length);
});

it('has a fixture for every operation on a record, and none for an operation that is not published', () => {
  expect(operations.filter((operation) => operation.params.length && !fixtures[operationName(operation)]).map(operationName)).toEqual([]);
  const published = new Set(operations.map(operationName));
  expect(Object.keys(fixtures).filter((name) => !published.has(name))).toEqual([]);
});

describe.each(operations)('$method $path', (operation) => {
  it('answers 401 UNAUTHORIZED without a key, with a malformed, unknown, revoked or expired key', async () => {
    const company = await t.company();
    const request = await requestFor(operation, company.id);
    const revoked = await t.key(company.id);
    await revokeKey(t.ctx.db, t.ctx, { companyId: company.id, id: revoked.id });
    const expiring = await t.key(company.id, { expiresAt: new Date(t.clock.now().getTime() + 60_000) });
    t.clock.advance(60_000);
    for (const token of [null, 'not-a-key', `qk_AAAAAAAAAAAA_${'a'.repeat(43)}`, revoked.token, expiring.token]) {
      expectError(await call(operation, token, request), 401, 'UNAUTHORIZED');
    }
  });

  if (operation.scope) {
    const needed = operation.scope;
    it(`answers 403 FORBIDDEN to a key without ${needed}`, async () => {
      const company = await t.company();
      // Every scope but those granting it (a write scope implies its read scope).
      const { token } = await t.key(company.id, { scopes: SCOPES.filter((scope) => !hasScope([scope], needed)) });
      expectError(await call(operation, token, await requestFor(operation, company.id)), 403, 'FORBIDDEN');
    });
  }

  if (operation.params.length) {
    it("answers 404 NOT_FOUND on another company's record", async () => {
      const owner = await t.company();
      const request = await requestFor(operation, owner.id);
      const intruder = await t.tenant();
      expectError(await call(operation, intruder.token, request), 404, 'NOT_FOUND');
    });
  }

  it('carries ratelimit-limit, -remaining and -reset on an answer to a valid key', async () => {
    const { company, token } = await t.tenant();
    const res = await call(operation, token, await requestFor(operation, company.id));
    expect(res.statusCode).toBeLessThan(500);
    for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers[header], header).toMatch(/^\d+$/);
  });
});
