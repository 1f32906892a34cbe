/**
 * A delivery worker in its own process, for the crash test: it runs the delivery loop against
 * DATABASE_URL on a manual clock standing at CLOCK_AT, and is killed with SIGKILL.
 */
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { ManualClock } from '../src/lib/clock.js';
import { startDeliveryLoop } from '../src/features/webhooks/deliver-loop.js';

await startDeliveryLoop(await createContext(loadConfig(), { poolSize: 4, clock: new ManualClock(process.env.CLOCK_AT) }));
