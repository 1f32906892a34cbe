import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/eventually.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { revokeKey } from './revoke-key.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('GET /v1/me', () => {
  it('answers the company and the key exactly as the spec shows them', async () => {
    const company = await t.company('Lincoln High');
    const { token, id } = await t.key(company.id, { scopes: ['surveys:read', 'invites:write'], rateLimitPerMin: 120 });
    const res = await t.get(token, '/v1/me');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        company: { id: company.id, name: 'Lincoln High', slug: company.slug },
        apiKey: { id, name: 'test key', scopes: ['surveys:read', 'invites:write'], rateLimitPerMin: 120 },
      },
    });
  });

  it('needs no scope: a key with no scopes at all works', async () => {
    const company = await t.company();
    const { token } = await t.key(company.id, { scopes: [] });
    expect((await t.get(token, '/v1/me')).statusCode).toBe(200);
  });

  it('accepts the scheme name in any case and rejects other schemes', async () => {
    const { token } = await t.tenant();
    expect((await t.request(null, { method: 'GET', url: '/v1/me', headers: { authorization: `bearer ${token}` } })).statusCode).toBe(200);
    expect((await t.request(null, { method: 'GET', url: '/v1/me', headers: { authorization: `Basic ${token}` } })).statusCode).toBe(401);
  });

  it('does not accept a token whose secret part was changed', async () => {
    const { token } = await t.tenant();
    const last = token.at(-1) === 'a' ? 'b' : 'a';
    const res = await t.get(token.slice(0, -1) + last, '/v1/me');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHORIZED');
  });

  it('stops accepting a revoked key as soon as the change notice arrives, without waiting for the cache period', async () => {
    const company = await t.company();
    const { token, id } = await t.key(company.id);
    expect((await t.get(token, '/v1/me')).statusCode).toBe(200);
    await revokeKey(t.ctx.db, t.ctx, { companyId: company.id, id });
    // The test clock stands still: only the notice can end the cached verification.
    await eventually(async () => (await t.get(token, '/v1/me')).statusCode === 401);
  });

  it('records lastUsedAt without blocking the request', async () => {
    const company = await t.company();
    const { token, id } = await t.key(company.id);
    await t.get(token, '/v1/me');
    await expect
      .poll(async () => (await t.ctx.pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [id])).rows[0].last_used_at)
      .toBeInstanceOf(Date);
  });
});
