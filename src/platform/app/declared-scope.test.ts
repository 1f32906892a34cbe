import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { testConfig } from '../../../test/harness.js';
import { createContext, type Context } from '../context.js';
import { buildApp } from './build-app.js';

// No request is made: the pool is never queried, so no database is needed.
let ctx: Context;
afterEach(async () => ctx?.close());

async function start(plugin: (v1: FastifyInstance) => Promise<void>): Promise<FastifyInstance> {
  ctx = await createContext(testConfig('postgres://unused@127.0.0.1:1/unused'));
  const app = await buildApp(ctx, { v1Plugins: [plugin] });
  await app.close();
  return app;
}

it('refuses to start with a /v1 route that declares no scope: it would accept any valid key', async () => {
  await expect(start(async (v1) => {
      v1.get('/_probe/open', async () => ({}));
    })).rejects.toThrow(/GET \/v1\/_probe\/open declares no config.scope/);
  await expect(start(async (v1) => {
      v1.post('/_probe/open', { config: {} }, async () => ({}));
    })).rejects.toThrow(/declares no config.scope/);
});

it('starts when each /v1 route names its scope, or null for any valid key', async () => {
  await expect(
    start(async (v1) => {
      v1.get('/_probe/scoped', { config: { scope: 'surveys:read' } }, async () => ({}));
      v1.get('/_probe/any-key', { config: { scope: null } }, async () => ({}));
    }),
  ).resolves.toBeDefined();
});
