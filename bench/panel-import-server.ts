/**
 * The server side of bench/panel-import.ts, in its own process as in production: the app on a
 * loopback port that is also the panel's origin (its CSRF check wants requests from there).
 * Set up by one IPC message ({ databaseUrl }); answers { origin, rssMb }. Asked 'memory', it
 * answers { peakRssMb } (maxRSS of this process so far). Exits when the bench disconnects.
 */
import { freePort } from '../test/free-port.js';
import { buildApp } from '../src/platform/app/build-app.js';
import { MemoryRateLimiter } from '../src/platform/app/rate-limiter.js';
import { createContext } from '../src/platform/context.js';
import { loadConfig } from '../src/platform/config.js';
import { openPool } from '../src/platform/db/database.js';

async function start({ databaseUrl }: { databaseUrl: string }) {
  const database = openPool(databaseUrl);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = { ...loadConfig(), databaseUrl, redisUrl: null, logLevel: 'silent' as const, publicPanelUrl: `${origin}/panel` };
  const ctx = await createContext(config, { database, limiter: new MemoryRateLimiter() });
  const app = await buildApp(ctx);
  await app.listen({ port, host: '127.0.0.1' });
  process.on('message', (message) => {
    if (message === 'memory') process.send!({ peakRssMb: process.resourceUsage().maxRSS / 1024 });
  });
  process.once('disconnect', () => {
    void app
      .close()
      .then(() => ctx.close())
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
  return { origin, rssMb: process.memoryUsage().rss / 2 ** 20 };
}

process.once('message', (setup: { databaseUrl: string }) => {
  start(setup).then(
    (ready) => process.send!(ready),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
