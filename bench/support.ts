import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
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

export interface ChildLoadPlan {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  /** `{n}` becomes a per-request counter; a header value `{uuid}` a fresh UUID per request. */
  body?: string;
  /** a file of paths, one a line: each request takes the next (the url's own path otherwise) */
  pathsFile?: string;
}

export interface MeasuredLoad extends LoadResult {
  total: number;
  /** CPU seconds of this process (the server) and of the bench database's backends (when given) during the load. */
  serverCpuS: number;
  databaseCpuS: number;
  /** Requests per CPU-second of server and database together: what neighbours on the machine do not change. */
  perCpuSecond: number;
}

const TICKS = 100; // USER_HZ on Linux

/** utime + stime of a process in seconds (/proc, Linux), or null when unreadable (it ended, or no such pid). */
export function processCpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/** utime + stime, in seconds, of each backend connected to `database` (from /proc), the asking one included: it may be the one doing the work. */
async function backendCpu(admin: pg.Pool, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const seconds = processCpuSeconds(pid);
    // null: the backend ended between the two reads; its CPU is lost to the count (pools keep theirs).
    if (seconds !== null) cpu.set(pid, seconds);
  }
  return cpu;
}

/** CPU seconds spent by this process and by the database's backends between `meterCpu` and the call of what it returns. */
export async function meterCpu(database: { pool: pg.Pool; name: string }): Promise<() => Promise<{ processCpuS: number; databaseCpuS: number }>> {
  const before = await backendCpu(database.pool, database.name);
  const cpu = process.cpuUsage();
  return async () => {
    const used = process.cpuUsage(cpu);
    const after = await backendCpu(database.pool, database.name);
    return {
      processCpuS: (used.user + used.system) / 1e6,
      databaseCpuS: [...after].reduce((sum, [pid, s]) => sum + s - (before.get(pid) ?? 0), 0),
    };
  };
}

/**
 * Load from a child process (bench/load-child.ts) against a server in this process, with the CPU
 * this process and the database's backends spent meanwhile: throughput per CPU-second holds on
 * a machine shared with other work, where wall-clock throughput does not.
 */
export async function measuredLoad(plan: ChildLoadPlan, database?: { pool: pg.Pool; name: string }): Promise<MeasuredLoad> {
  const cpu = process.cpuUsage();
  const stop = database ? await meterCpu(database) : null;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', new URL('./load-child.ts', import.meta.url).pathname, JSON.stringify(plan)], {
    maxBuffer: 1 << 20,
  });
  const used = process.cpuUsage(cpu);
  const serverCpuS = (used.user + used.system) / 1e6;
  const databaseCpuS = stop ? (await stop()).databaseCpuS : 0;
  const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as LoadResult & { total: number };
  return { ...result, serverCpuS, databaseCpuS, perCpuSecond: result.total / (serverCpuS + databaseCpuS) };
}
