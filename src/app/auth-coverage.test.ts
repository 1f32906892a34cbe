import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../test/harness.js';
import { routeFixtures, routeInputs } from '../../test/route-fixtures.js';
import type { OpenApiDocument } from '../../test/contract.js';
import { hasScope, SCOPES, type Scope } from '../features/keys/scopes.js';
import { revokeKey } from '../features/keys/revoke-key.js';
import { features } from '../features/index.js';
import { buildApp } from './build-app.js';
import { createContext } from '../context.js';

/**
 * The authentication, scope, tenancy and rate-limit suite, generated from the OpenAPI document:
 * every operation that declares a security requirement is called without a key, with malformed,
 * unknown, revoked and expired keys, without its scope, and on another company's record. A new
 * authenticated route is covered by being published; nobody opts in.
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

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
}

async function urlFor(operation: Operation, companyId: string): Promise<string> {
  const fixture = routeFixtures[operation.path];
  const values = fixture ? await fixture(t, companyId) : Object.fromEntries(operation.params.map((name) => [name, randomUUID()]));
  const query = routeInputs[`${operation.method} ${operation.path}`]?.query;
  return `/v1${operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(values[name]))}${query ? `?${query}` : ''}`;
}

const call = (operation: Operation, token: string | null, url: string) =>
  t.request(token, { method: operation.method as 'GET', url, ...(operation.method === 'GET' ? {} : { payload: routeInputs[`${operation.method} ${operation.path}`]?.body ?? {} }) });

it('finds the authenticated operations in the document', () => {
  expect(operations.length).toBeGreaterThanOrEqual(features.filter((feature) => feature.routes).length);
});

describe.each(operations)('$method $path', (operation) => {
  it('answers 401 UNAUTHORIZED without a key, with a malformed, unknown, revoked or expired key', async () => {
    const company = await t.company();
    const url = await urlFor(operation, company.id);
    const revoked = await t.key(company.id);
    await revokeKey(t.ctx.db, t.ctx, { companyId: company.id, id: revoked.id });
    const expiring = await t.key(company.id, { expiresAt: new Date(t.clock.now().getTime() + 60_000) });
    t.clock.advance(60_000);
    for (const token of [null, 'not-a-key', `qk_AAAAAAAAAAAA_${'a'.repeat(43)}`, revoked.token, expiring.token]) {
      expectError(await call(operation, token, url), 401, 'UNAUTHORIZED');
    }
  });

  if (operation.scope) {
    const needed = operation.scope;
    it(`answers 403 FORBIDDEN to a key without ${needed}`, async () => {
      const company = await t.company();
      // Every scope but those granting it (a write scope implies its read scope).
      const { token } = await t.key(company.id, { scopes: SCOPES.filter((scope) => !hasScope([scope], needed)) });
      expectError(await call(operation, token, await urlFor(operation, company.id)), 403, 'FORBIDDEN');
    });
  }

  if (operation.params.length) {
    it("answers 404 NOT_FOUND on another company's record", async () => {
      const owner = await t.company();
      const url = await urlFor(operation, owner.id);
      const intruder = await t.tenant();
      expectError(await call(operation, intruder.token, url), 404, 'NOT_FOUND');
    });
  }

  it('carries ratelimit-limit, -remaining and -reset on an answer to a valid key', async () => {
    const { company, token } = await t.tenant();
    const res = await call(operation, token, await urlFor(operation, company.id));
    expect(res.statusCode).toBeLessThan(500);
    for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers[header], header).toMatch(/^\d+$/);
  });
});
