import pg from 'pg';
import type { Config } from '../config.js';
import { openPool, type Database } from './database.js';
import { NoClusterError, startEmbeddedPostgres, type EmbeddedPostgres } from './embedded/index.js';

const EMBEDDED_DATABASE = 'quorum';

export interface Connection {
  database: Database;
  /** Set when the embedded server is used (owned or joined). */
  embedded: EmbeddedPostgres | null;
  close(): Promise<void>;
}

export interface ConnectOptions {
  poolSize?: number;
  log?: (line: string) => void;
  /** false: an embedded cluster or database that does not exist yet is NoDatabaseError, not created. Default true. */
  create?: boolean;
  /** The embedded server this process owns died: see EmbeddedOptions. */
  onUnexpectedExit?: (reason: string) => void;
}

/** The database the configuration names does not exist (and the caller may not create it). */
export class NoDatabaseError extends Error {}

/** Where the configuration points, for messages: DATABASE_URL without its password, or the embedded data directory. */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `the embedded PostgreSQL in QUORUM_DATA_DIR=${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  if (url.password) url.password = '***';
  return `DATABASE_URL=${url.toString()}`;
}

async function ensureDatabaseExists(adminUrl: string, name: string, create: boolean): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    if (!create) throw new NoDatabaseError(`the embedded cluster has no "${name}" database`);
    // 42P04: another process created it between the check and here, which is fine.
    await admin.query(`CREATE DATABASE ${name}`).catch((err: { code?: string }) => {
      if (err.code !== '42P04') throw err;
    });
  } finally {
    await admin.end();
  }
}

/** DATABASE_URL when set; otherwise the embedded Postgres under the data directory (started or joined). */
export async function connectDatabase(config: Config, options: ConnectOptions = {}): Promise<Connection> {
  if (config.databaseUrl) {
    const database = openPool(config.databaseUrl, options.poolSize);
    return { database, embedded: null, close: () => database.close() };
  }
  const create = options.create ?? true;
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    log: options.log,
    create,
    onUnexpectedExit: options.onUnexpectedExit,
  }).catch((err: unknown) => {
    throw err instanceof NoClusterError ? new NoDatabaseError(err.message) : err;
  });
  try {
    await ensureDatabaseExists(embedded.url, EMBEDDED_DATABASE, create);
  } catch (err) {
    await embedded.stop();
    throw err;
  }
  const url = new URL(embedded.url);
  url.pathname = `/${EMBEDDED_DATABASE}`;
  const database = openPool(url.toString(), options.poolSize);
  return {
    database,
    embedded,
    async close() {
      await database.close();
      await embedded.stop();
    },
  };
}
