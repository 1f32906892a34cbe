import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { buildApp } from '../../platform/app/build-app.js';

const MINUTE = 60_000;

let t: TestApp;
let second: FastifyInstance;
beforeAll(async () => {
  t = await startTestApp();
  second = await buildApp(t.ctx);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const me = async (app: FastifyInstance, token: string) =>
  (await app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${token}` } })).statusCode;

/** The key's last use once the unawaited write has landed (or not: then it stays what it was). */
async function lastUsed(id: string, settledOn: Date | null): Promise<Date | null> {
  let value: Date | null = null;
  await expect
    .poll(async () => {
      value = (await t.ctx.pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [id])).rows[0].last_used_at;
      return value?.getTime() ?? null;
    })
    .toBe(settledOn?.getTime() ?? null);
  return value;
}

describe('the last use of a key (shown in the panel) costs at most one write a minute per key', () => {
  it('is written at the first use, kept through a minute of further use, and moved after it', async () => {
    const company = await t.company();
    const { token, id } = await t.key(company.id);
    expect(await lastUsed(id, null)).toBeNull();

    const first = t.clock.now();
    expect(await me(t.app, token)).toBe(200);
    await lastUsed(id, first);

    t.clock.advance(MINUTE - 1000);
    for (let i = 0; i < 5; i++) expect(await me(t.app, token)).toBe(200);
    // Nothing moves it within the minute: give a stray write the time to land before reading.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsed(id, first)).toEqual(first);

    t.clock.advance(2000);
    const later = t.clock.now();
    expect(await me(t.app, token)).toBe(200);
    await lastUsed(id, later);
  });

  it('another instance that has not written yet does not write within the minute either (the database guards it)', async () => {
    const company = await t.company();
    const { token, id } = await t.key(company.id);
    const first = t.clock.now();
    expect(await me(t.app, token)).toBe(200);
    await lastUsed(id, first);

    t.clock.advance(30_000);
    expect(await me(second, token)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsed(id, first)).toEqual(first);
  });
});
