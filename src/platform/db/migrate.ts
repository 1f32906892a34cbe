import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
/** One advisory lock serialises concurrent instances migrating at start. */
const MIGRATION_LOCK = 727_011_001;
/**
 * graphile-worker's schema is recorded beside ours under its package version, so "is anything pending?"
 * is one query over our own table, without reading the queue's private tables.
 */
const WORKER_SCHEMA_MARK = `graphile-worker ${(createRequire(import.meta.url)('graphile-worker/package.json') as { version: string }).version}`;

export interface MigrationResult {
  applied: string[];
}

function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
}

/** What migrate() would do, read cheaply: the CLI checks this instead of migrating on every start. */
export async function pendingMigrations(pool: pg.Pool): Promise<{ pending: string[]; empty: boolean }> {
  // A query naming a missing table fails at planning time, so existence is checked first.
  const [{ exists }] = (await pool.query<{ exists: boolean }>(`SELECT to_regclass('quorum_migrations') IS NOT NULL AS exists`)).rows;
  const names = exists ? (await pool.query<{ name: string }>('SELECT name FROM quorum_migrations')).rows.map((r) => r.name) : [];
  const done = new Set(names);
  return { pending: [...migrationFiles(), WORKER_SCHEMA_MARK].filter((name) => !done.has(name)), empty: !exists };
}

/** Line endings are folded so a checkout that converts them does not read as an edit. */
function checksum(sqlText: string): string {
  return createHash('sha256').update(sqlText.replace(/\r\n/g, '\n')).digest('hex');
}

/**
 * Applies pending SQL migrations in name order, each in its own transaction, then graphile-worker's.
 * An applied migration whose file changed since is refused before anything runs: databases that
 * applied the old text would silently differ from those that apply the new one.
 */
export async function migrate(pool: pg.Pool, options: { dir?: string } = {}): Promise<MigrationResult> {
  const dir = options.dir ?? MIGRATIONS_DIR;
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS quorum_migrations (
      name text PRIMARY KEY, applied_at timestamptz(3) NOT NULL DEFAULT now())`);
    await client.query('ALTER TABLE quorum_migrations ADD COLUMN IF NOT EXISTS checksum text');
    const done = new Map(
      (await client.query<{ name: string; checksum: string | null }>('SELECT name, checksum FROM quorum_migrations')).rows.map((r) => [r.name, r.checksum]),
    );
    const files = migrationFiles(dir).map((file) => {
      const sqlText = readFileSync(join(dir, file), 'utf8');
      return { file, sqlText, sum: checksum(sqlText) };
    });
    const edited = files.filter(({ file, sum }) => done.has(file) && done.get(file) !== null && done.get(file) !== sum).map(({ file }) => file);
    if (edited.length > 0) {
      throw new Error(`migration ${edited.join(', ')} changed after it was applied; restore the applied text and add a new migration instead`);
    }
    // Rows applied before checksums were kept take the text found now as theirs.
    await client.query(
      `UPDATE quorum_migrations m SET checksum = f.sum FROM unnest($1::text[], $2::text[]) AS f(name, sum) WHERE m.name = f.name AND m.checksum IS NULL`,
      [files.map((f) => f.file), files.map((f) => f.sum)],
    );
    for (const { file, sqlText, sum } of files) {
      if (done.has(file)) continue;
      try {
        await client.query('BEGIN');
        await client.query(sqlText);
        await client.query('INSERT INTO quorum_migrations (name, checksum) VALUES ($1, $2)', [file, sum]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
      applied.push(file);
    }
    await migrateWorkerSchema(client, pool);
    await client.query('INSERT INTO quorum_migrations (name) VALUES ($1) ON CONFLICT DO NOTHING', [WORKER_SCHEMA_MARK]);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return { applied };
}

/**
 * graphile-worker installs its schema by first querying its migrations table and catching the failure,
 * which Postgres logs as an ERROR on every fresh database. A superuser (the embedded cluster) runs that
 * first install on a connection that logs only FATAL; anyone else gets that one harmless line.
 */
async function migrateWorkerSchema(client: pg.PoolClient, pool: pg.Pool): Promise<void> {
  // Loaded only when migrating: the CLI checks pendingMigrations on every command and should not pay for it.
  const { Logger, runMigrations } = await import('graphile-worker');
  const run = (pgPool: pg.Pool) => runMigrations({ pgPool, logger: new Logger(() => () => undefined) });
  const { rows } = await client.query<{ quiet: boolean }>(
    `SELECT to_regclass('graphile_worker.migrations') IS NULL AND (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS quiet`,
  );
  if (!rows[0].quiet) return run(pool);
  const quietPool = new pg.Pool({ ...pool.options, max: 1, options: '-c log_min_messages=fatal' });
  try {
    await run(quietPool);
  } finally {
    await quietPool.end();
  }
}
