import pg from 'pg';
import autocannon from 'autocannon';
import { openPool, type Database } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';

/** The bench database on the machine's Postgres: BENCH_DATABASE_URL, else `defaultName` there. */
export function benchDatabaseUrl(defaultName: string): URL {
  return new URL(process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/${defaultName}`);
}

/** A migrated bench database (benchDatabaseUrl), created when missing. */
export async function benchDatabase(defaultName: string): Promise<Database> {
  const url = benchDatabaseUrl(defaultName);
  const name = url.pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!exists.rowCount) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const database = openPool(url.toString(), 20);
  await migrate(database.pool);
  return database;
}

export interface LoadResult {
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** autocannon against one URL; latencies in milliseconds. */
export async function load(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, headers: options.headers });
  return { requestsPerSec: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

export function printTable(rows: Record<string, string | number>[]): void {
  const columns = Object.keys(rows[0]);
  const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(columns));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(columns.map((c) => cell(row[c]))));
}
