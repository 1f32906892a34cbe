/**
 * The server side of bench/roster-import.ts, in its own process as in production: the app on a
 * loopback port with an API key created for the run. Set up by one IPC message ({ companyId });
 * answers { appUrl, token }. Exits when the bench disconnects.
 */
import { buildApp } from '../src/platform/app/build-app.js';
import { MemoryRateLimiter } from '../src/platform/app/rate-limiter.js';
import { createContext } from '../src/platform/context.js';
import { loadConfig } from '../src/platform/config.js';
import { openPool } from '../src/platform/db/database.js';
import { createKey } from '../src/features/keys/create-key.js';
import { benchDatabaseUrl } from './support.js';

export const ROSTER_BENCH_DATABASE = 'quorum_bench_rosters';

async function start({ companyId }: { companyId: string }) {
  const database = openPool(benchDatabaseUrl(ROSTER_BENCH_DATABASE).toString());
  const ctx = await createContext({ ...loadConfig(), logLevel: 'silent' }, { database, limiter: new MemoryRateLimiter() });
  const { token } = await createKey(ctx.db, ctx, { companyId, name: 'roster-import bench', scopes: ['rosters:read'], rateLimitPerMin: 1_000_000 });
  const app = await buildApp(ctx);
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  process.once('disconnect', () => {
    void app
      .close()
      .then(() => ctx.close())
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
  return { appUrl, token };
}

process.once('message', (setup: { companyId: string }) => {
  start(setup).then(
    (addresses) => process.send!(addresses),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
