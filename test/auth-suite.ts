import { describe, expect, it } from 'vitest';
import type { TestApp } from './harness.js';
import { SCOPES, type Scope } from '../src/features/keys/scopes.js';
import { revokeKey } from '../src/features/keys/revoke-key.js';

export interface AuthSuiteRoute {
  method: 'GET' | 'POST';
  /** The route's scope; null for routes any valid key may call. */
  scope: Scope | null;
  /** Builds the URL (and body) for a tenant; may create the resource the route reads. */
  target(t: TestApp, tenant: { companyId: string; token: string }): Promise<{ url: string; body?: unknown }>;
  /** For routes on one resource: another company's resource must look missing (404). */
  otherCompanyIsNotFound?: boolean;
}

function expectError(res: { statusCode: number; json(): any }, status: number, code: string): void {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ success: false, error: { code } });
  expect(typeof res.json().error.message).toBe('string');
}

/**
 * The shared suite every authenticated route runs: no key, malformed key, unknown key, revoked
 * key, expired key, wrong scope, another company's resource.
 */
export function describeAuthenticatedRoute(name: string, route: AuthSuiteRoute, getApp: () => TestApp): void {
  describe(`${name}: authentication and tenancy`, () => {
    async function call(token: string | null, companyId?: string) {
      const t = getApp();
      const owner = companyId ?? (await t.company()).id;
      const { token: ownerToken } = await t.key(owner);
      const { url, body } = await route.target(t, { companyId: owner, token: ownerToken });
      return route.method === 'GET' ? t.get(token, url) : t.post(token, url, body ?? {});
    }

    it('answers 401 UNAUTHORIZED without a key', async () => {
      expectError(await call(null), 401, 'UNAUTHORIZED');
    });

    it('answers 401 UNAUTHORIZED for a malformed or unknown key', async () => {
      expectError(await call('not-a-key'), 401, 'UNAUTHORIZED');
      expectError(await call(`qk_AAAAAAAAAAAA_${'a'.repeat(43)}`), 401, 'UNAUTHORIZED');
    });

    it('answers 401 UNAUTHORIZED for a revoked key', async () => {
      const t = getApp();
      const company = await t.company();
      const { token, id } = await t.key(company.id);
      await revokeKey(t.ctx.db, t.ctx, company.id, id);
      expectError(await call(token, company.id), 401, 'UNAUTHORIZED');
    });

    it('answers 401 UNAUTHORIZED for an expired key', async () => {
      const t = getApp();
      const company = await t.company();
      const { token } = await t.key(company.id, { expiresAt: new Date(t.clock.now().getTime() + 60_000) });
      t.clock.advance(60_000);
      expectError(await call(token, company.id), 401, 'UNAUTHORIZED');
    });

    if (route.scope) {
      const needed = route.scope;
      it(`answers 403 FORBIDDEN for a key without ${needed}`, async () => {
        const t = getApp();
        const company = await t.company();
        const others = SCOPES.filter((s) => s !== needed && !(needed === 'invites:read' && s === 'invites:write'));
        const { token } = await t.key(company.id, { scopes: others });
        expectError(await call(token, company.id), 403, 'FORBIDDEN');
      });
    }

    if (route.otherCompanyIsNotFound) {
      it("answers 404 NOT_FOUND for another company's resource", async () => {
        const t = getApp();
        const intruder = await t.tenant();
        expectError(await call(intruder.token), 404, 'NOT_FOUND');
      });
    }
  });
}
