import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';

/** The route → scope table (docs/contract.md, What exists today). */
const DECIDED_SCOPES: Record<string, string | null> = {
  'GET /me': null,
  'GET /forms': 'surveys:read',
  'GET /forms/{id}': 'surveys:read',
  'GET /forms/{id}/responses': 'surveys:read',
  'GET /responses/{id}': 'surveys:read',
  'GET /forms/{id}/statistics': 'reports:read',
  'GET /forms/{id}/report': 'reports:read',
  'GET /forms/{id}/response-rates': 'reports:read',
  'GET /forms/{id}/reminders': 'surveys:read',
  'GET /forms/{id}/invites': 'invites:read',
  'POST /forms/{id}/invites': 'invites:write',
  'POST /invites/{id}/revoke': 'invites:write',
  'POST /forms/{id}/invites/send': 'invites:send',
  'GET /enrollments': 'rosters:read',
  'GET /class-groups': 'rosters:read',
  'POST /enrollments/import': 'rosters:write',
  'GET /events': 'events:read',
  'GET /treatments': 'treatments:read',
  'GET /treatments/{id}': 'treatments:read',
};

/** The respondent surface: its credential is the invite token (or none on a public link), never a key. */
const KEYLESS_PREFIX = 'GET /r/v1/|PUT /r/v1/|POST /r/v1/';

let t: TestApp;
let operations: { key: string; scopes: string[] }[];
let keyless: string[];
beforeAll(async () => {
  t = await startTestApp();
  const doc = (await t.get(null, '/v1/openapi.json')).json();
  const all = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );
  keyless = all.filter(({ op }) => Array.isArray(op.security) && op.security.length === 0).map(({ key }) => key);
  operations = all
    .filter(({ op }) => !(Array.isArray(op.security) && op.security.length === 0))
    .map(({ key, op }) => ({ key, scopes: op.security?.[0]?.bearerAuth ?? ['<none>'] }));
});
afterAll(async () => t?.close());

describe('route to scope map', () => {
  it('every documented operation is in the decided table and needs exactly its scope', () => {
    expect(operations.length).toBeGreaterThan(0);
    for (const { key, scopes } of operations) {
      expect(Object.keys(DECIDED_SCOPES), `${key} is not in the decided scope table`).toContain(key);
      const decided = DECIDED_SCOPES[key];
      expect(scopes, key).toEqual(decided ? [decided] : []);
    }
  });

  it('the only operations without a key are the respondent surface under /r/v1', () => {
    expect(keyless.length).toBeGreaterThan(0);
    for (const key of keyless) expect(key, `${key} declares no security`).toMatch(new RegExp(`^(${KEYLESS_PREFIX})`));
  });
});
