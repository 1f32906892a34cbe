import pg from 'pg';
import type { Config } from '../config.js';
import { openPool, type Database } from './database.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded/index.js';

const EMBEDDED_DATABASE = 'quorum';

export interface Connection {
  database: Database;
  /** Set when the embedded server is used (owned or joined). */
  embedded: EmbeddedPostgres | null;
  close(): Promise<void>;
}

async function ensureDatabaseExists(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      // 42P04: another process created it between the check and here, which is fine.
      await admin.query(`CREATE DATABASE ${name}`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err;
      });
    }
  } finally {
    await admin.end();
  }
}

/** DATABASE_URL when set; otherwise the embedded Postgres under the data directory (started or joined). */
export async function connectDatabase(config: Config, options: { poolSize?: number; log?: (line: string) => void } = {}): Promise<Connection> {
  if (config.databaseUrl) {
    const database = openPool(config.databaseUrl, options.poolSize);
    return { database, embedded: null, close: () => database.close() };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log: options.log });
  try {
    await ensureDatabaseExists(embedded.url, EMBEDDED_DATABASE);
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
