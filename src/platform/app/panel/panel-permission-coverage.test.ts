import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../../../test/harness.js';
import { loadPanelRouteFixtures, type RouteRequest } from '../../../../test/route-fixtures.js';
import { PanelClient, panelSession, type PanelSignIn } from '../../../../test/panel.js';
import { PERMISSIONS, type Permission } from '../../../features/memberships/index.js';
import { features } from '../../../features/index.js';
import { buildApp } from '../build-app.js';
import { createContext } from '../../context.js';

/**
 * The panel's session, permission, CSRF and tenancy suite, generated from the panel's OpenAPI
 * document: every operation that is not public is called without a session, without its permission
 * (when it names one), without the CSRF token and from another origin (when it changes state), and
 * on another company's record (its feature's panel-route-fixtures.ts names a real one). A new panel
 * route is covered by being registered; a route on a record without a fixture fails here.
 */
interface Operation {
  method: string;
  path: string;
  /** 'public', 'any member', 'owner' or a permission of the vocabulary (x-permission). */
  permission: string;
  params: string[];
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Built without a database (as the /v1 suite does), so the operations are known when tests are collected. */
async function panelOperations(): Promise<Operation[]> {
  const ctx = await createContext(testConfig('postgres://unused@127.0.0.1:1/unused'));
  const app = await buildApp(ctx);
  await app.ready();
  const document = app.panelSwagger() as unknown as { paths: Record<string, Record<string, { 'x-permission'?: string }>> };
  await app.close();
  await ctx.close();
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      permission: operation['x-permission'] ?? 'undeclared',
      params: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]),
    })),
  );
}

const operations = await panelOperations();
const fixtures = await loadPanelRouteFixtures(features.map((feature) => feature.name));
const operationName = (operation: Operation) => `${operation.method} ${operation.path}`;
const guarded = operations.filter((operation) => operation.permission !== 'public');

let t: TestApp;
let client: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  client = new PanelClient(t);
});
afterAll(async () => t?.close());

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, code: string, details?: object): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, error: { code, message: expect.any(String), ...(details ? { details } : {}) } });
}

async function requestFor(operation: Operation, companyId: string): Promise<{ url: string; body?: object }> {
  const fixture = fixtures[operationName(operation)];
  if (!fixture && operation.params.length) throw new Error(`${operationName(operation)} has no fixture in its feature's panel-route-fixtures.ts.`);
  const { params, query, body }: RouteRequest = fixture ? await fixture(t, companyId) : { params: {} };
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params[name]));
  return { url: `/panel/api${path}${query ? `?${query}` : ''}`, body };
}

const call = (operation: Operation, session: PanelSignIn | null, { url, body }: { url: string; body?: object }, options: { csrf?: false; origin?: string | null } = {}) =>
  client.request(session, { method: operation.method as 'GET', url, ...options, ...(operation.method === 'GET' ? {} : { payload: body ?? {} }) });

/** A member who holds everything but what the operation needs. */
function withoutPermission(permission: string): { permissions: Permission[]; owner: boolean } {
  return { permissions: PERMISSIONS.filter((name) => name !== permission), owner: false };
}

it('finds the panel operations, each with a declared permission', () => {
  expect(operations.map(operationName)).toEqual(expect.arrayContaining(['GET /session', 'POST /session', 'DELETE /session', 'PUT /session/company']));
  expect(operations.filter((operation) => operation.permission === 'undeclared').map(operationName)).toEqual([]);
  expect(new Set(operations.map((operation) => operation.permission))).toSatisfy((names: Set<string>) => [...names].every((name) => ['public', 'any member', 'owner', ...PERMISSIONS].includes(name)));
});

it('has a fixture for every operation on a record, and none for an operation that is not published', () => {
  expect(guarded.filter((operation) => operation.params.length && !fixtures[operationName(operation)]).map(operationName)).toEqual([]);
  const published = new Set(operations.map(operationName));
  expect(Object.keys(fixtures).filter((name) => !published.has(name))).toEqual([]);
});

describe.each(guarded)('$method $path ($permission)', (operation) => {
  it('answers 401 UNAUTHORIZED without a session, with an unknown one and with a signed-out one', async () => {
    const member = await panelSession(t, { owner: true });
    const request = await requestFor(operation, member.companyId!);
    const signedOut = await panelSession(t, { owner: true });
    expect((await client.delete(signedOut, '/panel/api/session')).statusCode).toBe(200);
    for (const session of [null, { ...member, cookie: 'A'.repeat(43) }, signedOut]) {
      expectError(await call(operation, session, request), 401, 'UNAUTHORIZED');
    }
  });

  if (operation.permission !== 'any member') {
    it(`answers 403 FORBIDDEN to a member without ${operation.permission}`, async () => {
      const member = await panelSession(t, withoutPermission(operation.permission));
      expectError(await call(operation, member, await requestFor(operation, member.companyId!)), 403, 'FORBIDDEN', { permission: operation.permission });
    });
  }

  if (STATE_CHANGING.has(operation.method)) {
    it('refuses a request without the CSRF token, and one from another origin', async () => {
      const owner = await panelSession(t, { owner: true });
      const request = await requestFor(operation, owner.companyId!);
      expectError(await call(operation, owner, request, { csrf: false }), 403, 'FORBIDDEN', { reason: 'csrf' });
      expectError(await call(operation, owner, request, { origin: 'https://elsewhere.example' }), 403, 'FORBIDDEN', { reason: 'csrf' });
      expectError(await call(operation, owner, request, { origin: null }), 403, 'FORBIDDEN', { reason: 'csrf' });
    });
  }

  if (operation.params.length) {
    it("answers 404 NOT_FOUND on another company's record", async () => {
      const company = await t.company();
      const request = await requestFor(operation, company.id);
      const intruder = await panelSession(t, { owner: true });
      expectError(await call(operation, intruder, request), 404, 'NOT_FOUND');
    });
  }
});

describe.each(operations.filter((operation) => operation.permission === 'public' && STATE_CHANGING.has(operation.method)))('public $method $path', (operation) => {
  it('refuses a request from another origin, or with none', async () => {
    const request = await requestFor(operation, (await t.company()).id);
    expectError(await call(operation, null, request, { origin: 'https://elsewhere.example' }), 403, 'FORBIDDEN', { reason: 'csrf' });
    expectError(await call(operation, null, request, { origin: null }), 403, 'FORBIDDEN', { reason: 'csrf' });
  });
});
