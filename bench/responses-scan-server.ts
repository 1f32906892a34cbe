/**
 * The server side of bench/responses-scan.ts, in its own process as in production: the client
 * (undici, JSON.parse of every page) and the raw SQL reads stay in the bench's process, so the
 * service's event loop and heap are its own. Serves, on loopback ports:
 * - the real app, with its own pool and an API key created for the run;
 * - the transport floor: a bare Fastify route sending one captured first page (≈200 KB) as is.
 * Set up by one IPC message ({ companyId, path }); answers { appUrl, bareUrl, token }. Exits when
 * the bench disconnects.
 */
import Fastify from 'fastify';
import { buildApp } from '../src/platform/app/build-app.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { createKey } from '../src/features/keys/create-key.js';
import { benchDatabaseUrl } from './support.js';

export interface ServerSetup {
  companyId: string;
  /** The page the bare route serves, captured from the app. */
  path: string;
}

export interface ServerAddresses {
  appUrl: string;
  bareUrl: string;
  token: string;
}

async function start({ companyId, path }: ServerSetup): Promise<ServerAddresses> {
  const ctx = await createContext({ ...loadConfig(), databaseUrl: benchDatabaseUrl('quorum_bench').toString(), redisUrl: null, logLevel: 'silent' });
  const { token } = await createKey(ctx.db, ctx, { companyId, name: 'responses-scan bench', scopes: ['surveys:read'], rateLimitPerMin: 1_000_000 });
  const app = await buildApp(ctx);
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const captured = (await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } })).body;
  const bare = Fastify({ logger: false });
  bare.get('/page', async (_request, reply) => reply.type('application/json').send(captured));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  process.once('disconnect', () => {
    void Promise.all([app.close(), bare.close()])
      .then(() => ctx.close())
      .finally(() => process.exit(0));
  });
  return { appUrl, bareUrl, token };
}

process.once('message', (setup: ServerSetup) => {
  start(setup).then(
    (addresses) => process.send!(addresses),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
