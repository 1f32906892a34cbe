import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { eventually } from '../../../test/eventually.js';
import { buildApp } from '../../platform/app/build-app.js';
import { revokeKey } from './revoke-key.js';

const HOUR = 3_600_000;
let t: TestApp;
let second: FastifyInstance;
beforeAll(async () => {
  // An hour-long cache period: only the change notice can explain a refusal within the test.
  t = await startTestApp({ authCacheMs: HOUR });
  second = await buildApp(t.ctx, { authCacheMs: HOUR });
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const status = async (app: FastifyInstance, token: string) =>
  (await app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${token}` } })).statusCode;


describe('key changes reach the key cache of every instance at once', () => {
  it('a revocation on one instance refuses the key on both, though both had it cached', async () => {
    const company = await t.company();
    const { token, id } = await t.key(company.id);
    expect([await status(t.app, token), await status(second, token)]).toEqual([200, 200]);
    await revokeKey(t.ctx.db, t.ctx, { companyId: company.id, id });
    await eventually(async () => (await status(t.app, token)) === 401 && (await status(second, token)) === 401);
  });

  it('an expiry moved into the past by hand (any path, e.g. SQL or the CLI) refuses the key too', async () => {
    const company = await t.company();
    const { token, id } = await t.key(company.id);
    expect([await status(t.app, token), await status(second, token)]).toEqual([200, 200]);
    await t.ctx.pool.query(`UPDATE api_keys SET expires_at = $2 WHERE id = $1`, [id, new Date(t.clock.now().getTime() - 1000)]);
    await eventually(async () => (await status(t.app, token)) === 401 && (await status(second, token)) === 401);
  });

  it('a change that does not end validity (last use) is not announced, so the cache keeps serving', async () => {
    const company = await t.company();
    const { token, id } = await t.key(company.id);
    expect(await status(second, token)).toBe(200);
    const listener = await t.ctx.pool.connect();
    const notices: string[] = [];
    listener.on('notification', (n) => notices.push(n.payload ?? ''));
    await listener.query('LISTEN quorum_api_key_changed');
    await t.ctx.pool.query('UPDATE api_keys SET last_used_at = now(), name = $2 WHERE id = $1', [id, 'renamed']);
    await t.ctx.pool.query('UPDATE api_keys SET revoked_at = revoked_at WHERE id = $1', [id]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await listener.query('UNLISTEN *');
    listener.release();
    expect(notices).toEqual([]);
    expect(await status(second, token)).toBe(200);
  });
});
