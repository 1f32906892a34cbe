import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { Logger, runMigrations as runWorkerMigrations } from 'graphile-worker';

export const silentWorkerLogger = new Logger(() => () => undefined);

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
/** One advisory lock serialises concurrent instances migrating at start. */
const MIGRATION_LOCK = 727_011_001;

export interface MigrationResult {
  applied: string[];
}

function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
}

/** Applies pending SQL migrations in name order, each in its own transaction, then graphile-worker's. */
export async function migrate(pool: pg.Pool): Promise<MigrationResult> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS quorum_migrations (
      name text PRIMARY KEY, applied_at timestamptz(3) NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM quorum_migrations')).rows.map((r) => r.name));
    for (const file of migrationFiles()) {
      if (done.has(file)) continue;
      const sqlText = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
      try {
        await client.query('BEGIN');
        await client.query(sqlText);
        await client.query('INSERT INTO quorum_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
      applied.push(file);
    }
    await runWorkerMigrations({ pgPool: pool, logger: silentWorkerLogger });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return { applied };
}
