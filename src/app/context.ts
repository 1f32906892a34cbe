import type pg from 'pg';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { IdGenerator } from '../lib/ids.js';
import type { RateLimiter } from './rate-limiter.js';

/** What every service and route needs from the outside world; tests swap clock and ids. */
export interface AppContext {
  config: Config;
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  newId: IdGenerator;
  limiter: RateLimiter;
}
