import type pg from 'pg';
import type { Config } from './config.js';
import type { Database, Db } from './db/database.js';
import { openReplica, type ReplicaProbe } from './db/replica.js';
import { connectDatabase, type ConnectOptions } from './db/connect.js';
import type { EmbeddedPostgres } from './db/embedded/index.js';
import { createRateLimiter, type RateLimiter } from './app/rate-limiter.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { idGeneratorFor, type IdGenerator } from '../lib/ids.js';
import { createLogger, type Logger } from '../lib/logger.js';
import type { Mailer } from '../lib/providers.js';
import type { EventConsumer } from '../features/events/event-consumer.js';
import type { ResponseConsumer } from '../features/responses/response-consumer.js';
import type { SettingsConsumer } from '../features/companies/settings-consumer.js';
import { features } from '../features/index.js';

/**
 * Everything a route, service, job or sweep needs from the outside world, assembled in one place
 * (createContext) for the server, the CLI, the worker, the tests and the benches: adding a
 * provider is one edit here. Tests swap the clock, ids and providers through the overrides.
 */
export interface Context {
  config: Config;
  pool: pg.Pool;
  db: Db;
  /** Heavy reads (lists, scans, statistics) go here: the replica of READ_DATABASE_URL, or the main database. */
  readDb: Db;
  /** The replica's lag and fallbacks for /metrics; null without READ_DATABASE_URL. */
  replica: ReplicaProbe | null;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  limiter: RateLimiter;
  mailer: Mailer | null;
  /** Who acts on stored events (webhook fan-out), from the feature registry. */
  eventConsumers: readonly EventConsumer[];
  /** Who acts on every new response in its transaction (goals, treatments), from the feature registry. */
  responseConsumers: readonly ResponseConsumer[];
  /** Who follows a company's settings change in its transaction (treatments' deadlines), from the feature registry. */
  settingsConsumers: readonly SettingsConsumer[];
  /** Set when the database is the embedded Postgres (started or joined by this process). */
  embedded: EmbeddedPostgres | null;
  /** Ends what createContext opened (pools, limiter, providers, an embedded server it started). */
  close(): Promise<void>;
}

export interface ContextOverrides {
  /** An already open database; its owner closes it (close() leaves it alone). */
  database?: Database;
  poolSize?: number;
  /** Progress lines of the embedded Postgres start. */
  log?: (line: string) => void;
  /** Whether a missing embedded cluster may be created, and who hears of its death (see ConnectOptions). */
  connect?: Pick<ConnectOptions, 'create' | 'onUnexpectedExit'>;
  clock?: Clock;
  newId?: IdGenerator;
  logger?: Logger;
  limiter?: RateLimiter;
  mailer?: Mailer | null;
}

type Closer = () => Promise<unknown>;

/** Closes in reverse order of opening; every closer runs even when one fails. */
async function closeAll(closers: Closer[]): Promise<void> {
  const failures: unknown[] = [];
  for (const close of [...closers].reverse()) await close().catch((err: unknown) => failures.push(err));
  if (failures.length) throw failures[0];
}

export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<Context> {
  const closers: Closer[] = [];
  try {
    let database = overrides.database;
    let embedded: EmbeddedPostgres | null = null;
    if (!database) {
      const connection = await connectDatabase(config, { poolSize: overrides.poolSize, log: overrides.log, ...overrides.connect });
      closers.push(() => connection.close());
      database = connection.database;
      embedded = connection.embedded;
    }
    const logger = overrides.logger ?? createLogger(config);
    let readDb = database.db;
    let replica: ReplicaProbe | null = null;
    if (config.readDatabaseUrl) {
      const opened = openReplica(config.readDatabaseUrl, database.pool, { max: overrides.poolSize, log: (line) => logger.warn(line) });
      closers.push(() => opened.database.close());
      readDb = opened.database.db;
      replica = opened.probe;
    }
    const limiter = overrides.limiter ?? createRateLimiter(config.redisUrl);
    closers.push(() => limiter.close());
    const clock = overrides.clock ?? systemClock;
    const mailer = overrides.mailer ?? null;
    if (mailer) closers.push(() => mailer.close());
    return {
      config,
      pool: database.pool,
      db: database.db,
      readDb,
      replica,
      clock,
      newId: overrides.newId ?? idGeneratorFor(clock),
      logger,
      limiter,
      mailer,
      eventConsumers: features.flatMap((feature) => feature.eventConsumers ?? []),
      responseConsumers: features.flatMap((feature) => feature.responseConsumers ?? []),
      settingsConsumers: features.flatMap((feature) => feature.settingsConsumers ?? []),
      embedded,
      close: () => closeAll(closers),
    };
  } catch (err) {
    await closeAll(closers).catch(() => undefined);
    throw err;
  }
}
