/**
 * The worker tier of bench/webhooks.ts in its own process (BENCH_SPLIT=1): the delivery loop
 * against DATABASE_URL with the bench's SECRET_KEY, as `quorum worker` runs it. Prints "ready"
 * once it listens; on SIGTERM it stops (what it claimed is still sent and recorded) and exits.
 */
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { startDeliveryLoop } from '../src/features/webhooks/deliver-loop.js';

const ctx = await createContext({ ...loadConfig(), webhookAllowPrivateTargets: true, logLevel: 'silent', redisUrl: null });
const loop = await startDeliveryLoop(ctx, { leaseMs: 30_000 });
process.once('SIGTERM', () => {
  void loop
    .stop()
    .then(() => ctx.close())
    .then(() => process.exit(0));
});
process.stdout.write('ready\n');
