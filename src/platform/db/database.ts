import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';

/**
 * Queries name their tables (no relational `db.query` API): drizzle is not handed the schema, whose
 * relational map it would build over every table on each connect, in every CLI command's start-up.
 * $client: the pool behind it (a named statement goes there: drizzle's execute names none).
 */
export type Db = NodePgDatabase & { $client: pg.Pool };
/** A transaction handle; every write that emits events or jobs runs in one. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Services take either: a plain handle for reads, the caller's transaction for writes. */
export type DbOrTx = Db | Tx;

// timestamptz columns read through raw SQL arrive as Date objects (pg's default); int8 counts as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface Database {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

export function openPool(connectionString: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString, max, application_name: 'quorum' });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor may a checked-out one between two queries (a Postgres crash or restart mid-transaction):
  // pg-pool listens only while a client is idle, and an unheard 'error' event is thrown. Its next query fails instead.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool);
  return { pool, db, close: () => pool.end() };
}
