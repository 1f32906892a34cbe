/**
 * A delivery worker in its own process, for the crash test: it runs the delivery loop against
 * DATABASE_URL on a manual clock standing at CLOCK_AT, and is killed with SIGKILL.
 */
import { loadConfig } from '../src/config.js';
import { openPool } from '../src/db/database.js';
import { ManualClock } from '../src/lib/clock.js';
import { idGeneratorFor } from '../src/lib/ids.js';
import { startDeliveryLoop } from '../src/features/webhooks/deliver-loop.js';

const config = loadConfig();
const database = openPool(config.databaseUrl!, 4);
const clock = new ManualClock(process.env.CLOCK_AT);
await startDeliveryLoop({ config, db: database.db, pool: database.pool, clock, newId: idGeneratorFor(clock) });
