import { PgDialect } from 'drizzle-orm/pg-core';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { Pool as HttpPool } from 'undici';
import type { Database } from '../src/platform/db/database.js';
import { responsePageSql, type ListResponsesInput } from '../src/features/responses/list-responses.js';
import type { ScanPosition } from '../src/features/responses/scan-paths.js';
import { COURSE_IDS, ensureBenchData, RESPONSE_COUNT, type BenchData } from './responses-scan-seed.js';
import type { ServerAddresses, ServerSetup } from './responses-scan-server.js';
import { benchDatabase, benchDatabaseUrl, meterCpu, printTable, processCpuSeconds } from './support.js';

/**
 * GET /v1/forms/{id}/responses over 1,000,000 responses, the server in its own process
 * (responses-scan-server.ts), the client (undici) and the raw SQL reads (pg) in this one:
 * 1. a full scan at limit=100&include=answers through HTTP; each page is also read raw with the
 *    route's own SQL statement (plain, and prepared as the route sends it), and the bare route of
 *    the transport floor is fetched as often (the four paths in turns of 50 pages), with each
 *    path's CPU (server, client, Postgres);
 * 2. page latency near the start and past the 900,000th row (90% of a smaller seed), replayed alternately from the
 *    cursors the scan handed out, so both depths see the same machine;
 * 3. filtered scans (dims, from/to) to the end, in turns with unfiltered pages, the two paths of a
 *    single-dim scan raw, and EXPLAIN ANALYZE of their statements.
 */

const LIMIT = 100;
const SAMPLE_PAGES = 100;
/** BENCH_SCAN_PAGES caps the full scan (default: all 10,000 pages). */
const SCAN_PAGES = Number(process.env.BENCH_SCAN_PAGES ?? Math.ceil(RESPONSE_COUNT / LIMIT));
/** The first page past the 900,000th row (90% of the rows with a smaller seed). */
const DEEP_PAGE = Math.floor((0.9 * RESPONSE_COUNT) / LIMIT);
const DEEP_ROW = `${(DEEP_PAGE * LIMIT) / 1000}k`;
/** Pages each path reads in one turn of the full scan. */
const TURN_PAGES = 50;
const dialect = new PgDialect();
const SERVER_ENTRY = fileURLToPath(new URL('./responses-scan-server.ts', import.meta.url));
/** BENCH_PROFILE=<dir>: the server writes a V8 CPU profile there when the run ends (where its time goes). */
const PROFILE = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];

type Server = Awaited<ReturnType<typeof startServer>>;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const round = (value: number) => Number(value.toFixed(2));
const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

interface Page {
  ids: string[];
  total?: number;
  /** createdAt of the page's last item */
  last?: string;
}

/** The route over HTTP; a page is fetched with the cursor of the previous one (null: the first). */
async function httpPage(server: Server, path: string, cursor: string | null): Promise<Page & { nextCursor: string | null }> {
  const query = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
  const { statusCode, body } = await server.http.request({ method: 'GET', path: `${path}${query}`, headers: { authorization: `Bearer ${server.token}` } });
  const page = (await body.json()) as { data: { id: string; createdAt: string }[]; meta: { nextCursor: string | null; total?: number } };
  if (statusCode !== 200) throw new Error(`HTTP ${statusCode}: ${JSON.stringify(page)}`);
  return { ids: page.data.map((item) => item.id), total: page.meta.total, last: page.data.at(-1)?.createdAt, nextCursor: page.meta.nextCursor };
}

/** The statement the route runs, sent raw with pg; the position stands in for the cursor. */
export function pageQuery(input: ListResponsesInput, position: ScanPosition | null) {
  const { sql, params } = dialect.sqlToQuery(responsePageSql(input, position));
  return { text: sql, values: params };
}

/** prepared: sent as a named statement, parsed once per connection, as the route sends the unfiltered scan's. */
export async function sqlPage(pool: pg.Pool, input: ListResponsesInput, position: ScanPosition | null, prepared = false): Promise<Page & { next: ScanPosition; more: boolean }> {
  const query = pageQuery(input, position);
  const name = prepared ? `bench-${createHash('sha1').update(query.text).digest('hex')}` : undefined;
  const { rows } = await pool.query<{ id: string; createdAt: string; bound?: number; walks?: boolean }>({ ...query, name });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1)!;
  const scan = position ? { s: position.s, w: position.w } : { s: rows[0].bound!, w: rows[0].walks ?? undefined };
  return { ids: page.map((row) => row.id), next: { t: last.createdAt, id: last.id, ...scan }, more: rows.length > input.limit };
}

/** The bare route: one captured page sent as is, fetched and parsed as httpPage does. */
async function floorPage(server: Server): Promise<void> {
  const { body } = await server.bare.request({ method: 'GET', path: '/page' });
  await body.json();
}

/** responses-scan-server.ts in a child process: node itself with tsx's loader, as the crash test does. */
async function startServer(data: BenchData) {
  const child = spawn(process.execPath, [...PROFILE, '--import', 'tsx', SERVER_ENTRY], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  const ready = new Promise<ServerAddresses>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ServerAddresses));
    void exited.then(([code]) => reject(new Error(`the bench server exited (${code})`)));
  });
  child.send({ companyId: data.companyId, path: scanPath(data) } satisfies ServerSetup);
  const { appUrl, bareUrl, token } = await ready;
  const http = new HttpPool(appUrl, { connections: 1 });
  const bare = new HttpPool(bareUrl, { connections: 1 });
  return {
    token,
    http,
    bare,
    /** CPU seconds the server's process has used so far. */
    cpuSeconds: () => processCpuSeconds(child.pid) ?? NaN,
    async close() {
      await Promise.all([http.close(), bare.close()]);
      child.disconnect();
      await exited;
    },
  };
}

export const scanInput = (data: BenchData, filters: Partial<ListResponsesInput> = {}): ListResponsesInput => ({
  companyId: data.companyId,
  formId: data.formId,
  limit: LIMIT,
  includeAnswers: true,
  dims: {},
  ...filters,
});
const scanPath = (data: BenchData, query = '') => `/v1/forms/${data.formId}/responses?limit=${LIMIT}&include=answers${query ? `&${query}` : ''}`;

/** The raw statement over the scanned pages once, so the measured pass starts from a warm cache. */
async function warmUp(pool: pg.Pool, input: ListResponsesInput): Promise<number[]> {
  const times: number[] = [];
  let position: ScanPosition | null = null;
  while (times.length < SCAN_PAGES) {
    const { ms, value } = await timed(() => sqlPage(pool, input, position));
    times.push(ms);
    if (!value.more) break;
    position = value.next;
  }
  return times;
}

/**
 * The full scan in turns of TURN_PAGES pages: the next pages through HTTP, the same pages raw,
 * plain and as a named (prepared) statement (they must return the same rows), and as many fetches of the bare route, each path back to back
 * as one scanning client would, the turns rotating which path goes first. Work a process leaves
 * for after an answer (its garbage collection, the server's onResponse hooks) then delays that
 * path's own next page, not another path's timing.
 */
async function fullScan(database: Database, server: Server, data: BenchData) {
  const input = scanInput(data);
  const http = { times: [] as number[], cursors: [] as (string | null)[], ids: [] as string[][] };
  const raw = { times: [] as number[], positions: [] as (ScanPosition | null)[], ids: [] as string[][] };
  const prepared = { times: [] as number[], ids: [] as string[][] };
  const floor: number[] = [];
  const cpu = { http: emptyCpu(), raw: emptyCpu(), prepared: emptyCpu(), floor: emptyCpu() };
  const metered = { pool: database.pool, name: benchDatabaseUrl('quorum_bench').pathname.slice(1) };
  /** One path's turn, its CPU added to the path's: each process's CPU then is that path's alone. */
  const measured = (into: PathCpu, turn: () => Promise<void>) => async () => {
    const serverBefore = server.cpuSeconds();
    const stop = await meterCpu(metered);
    await turn();
    const used = await stop();
    into.server += server.cpuSeconds() - serverBefore;
    into.client += used.processCpuS;
    into.database += used.databaseCpuS;
  };
  let cursor: string | null = null;
  let position: ScanPosition | null = null;
  let preparedPosition: ScanPosition | null = null;
  let more = true;
  for (let turn = 0; more && http.cursors.length < SCAN_PAGES; turn++) {
    const pages = Math.min(TURN_PAGES, SCAN_PAGES - http.cursors.length);
    const paths = [
      measured(cpu.http, async () => {
        for (let i = 0; i < pages && more; i++) {
          const { ms, value } = await timed(() => httpPage(server, scanPath(data), cursor));
          http.times.push(ms);
          http.cursors.push(cursor);
          http.ids.push(value.ids);
          cursor = value.nextCursor;
          more = cursor !== null;
        }
      }),
      measured(cpu.raw, async () => {
        for (let i = 0, rawMore = true; i < pages && rawMore; i++) {
          const { ms, value } = await timed(() => sqlPage(database.pool, input, position));
          raw.times.push(ms);
          raw.positions.push(position);
          raw.ids.push(value.ids);
          position = value.next;
          rawMore = value.more;
        }
      }),
      measured(cpu.prepared, async () => {
        for (let i = 0, rawMore = true; i < pages && rawMore; i++) {
          const { ms, value } = await timed(() => sqlPage(database.pool, input, preparedPosition, true));
          prepared.times.push(ms);
          prepared.ids.push(value.ids);
          preparedPosition = value.next;
          rawMore = value.more;
        }
      }),
      measured(cpu.floor, async () => {
        for (let i = 0; i < pages; i++) floor.push((await timed(() => floorPage(server))).ms);
      }),
    ];
    const first = turn % paths.length;
    for (const path of [...paths.slice(first), ...paths.slice(0, first)]) await path();
  }
  http.ids.forEach((ids, page) => {
    if (ids.join() !== raw.ids[page]?.join() || ids.join() !== prepared.ids[page]?.join()) throw new Error(`page ${page + 1}: HTTP and SQL rows differ`);
  });
  if (raw.ids.length !== http.ids.length) throw new Error(`HTTP read ${http.ids.length} pages, SQL ${raw.ids.length}`);
  return { http, raw, prepared, floor, cpu };
}

/** CPU seconds a path used: the server's process, this process (the client, or pg for the raw reads), the database's backends. */
interface PathCpu {
  server: number;
  client: number;
  database: number;
}
const emptyCpu = (): PathCpu => ({ server: 0, client: 0, database: 0 });

function cpuRow(label: string, pages: number, cpu: PathCpu): Record<string, string | number> {
  const perPage = (seconds: number) => round((seconds * 1000) / pages);
  const total = cpu.server + cpu.client + cpu.database;
  return {
    path: label,
    'server ms/page': perPage(cpu.server),
    'client ms/page': perPage(cpu.client),
    'Postgres ms/page': perPage(cpu.database),
    'rows per CPU-second': Math.round((pages * LIMIT) / total),
  };
}

/** Pages 2-101 and the 100 pages past DEEP_PAGE, read again in turns: shallow, deep, shallow, ... */
async function depthLatency<P>(starts: P[], read: (start: P) => Promise<unknown>) {
  const shallow: number[] = [];
  const deep: number[] = [];
  for (let i = 0; i < SAMPLE_PAGES && DEEP_PAGE + i < starts.length; i++) {
    shallow.push((await timed(() => read(starts[1 + i]))).ms);
    deep.push((await timed(() => read(starts[DEEP_PAGE + i]))).ms);
  }
  return { shallow, deep };
}

const rowsPerSecond = (times: number[]) => Math.round((times.length * LIMIT) / (sum(times) / 1000));

function scanRow(label: string, times: number[], depth: { shallow: number[]; deep: number[] } | null): Record<string, string | number> {
  const measured = depth !== null && depth.deep.length > 0;
  const at = (values: number[] | undefined, p: number) => (measured && values ? round(percentile(values, p)) : '-');
  return {
    path: label,
    pages: times.length,
    'rows/s': rowsPerSecond(times),
    'page ms (mean)': round(sum(times) / times.length),
    'page ms (p50)': round(percentile(times, 50)),
    'p50 pages 2-101': at(depth?.shallow, 50),
    'p99 pages 2-101': at(depth?.shallow, 99),
    [`p50 past row ${DEEP_ROW}`]: at(depth?.deep, 50),
    [`p99 past row ${DEEP_ROW}`]: at(depth?.deep, 99),
    'deep/shallow p50': measured ? round(percentile(depth.deep, 50) / percentile(depth.shallow, 50)) : '-',
  };
}

export interface FilteredCase {
  label: string;
  query: string;
  filters: Partial<ListResponsesInput>;
}

/** A session date that the first course shares with only a few dozen responses. */
async function rareSessionDate(pool: pg.Pool, data: BenchData): Promise<string> {
  const { rows } = await pool.query<{ day: string }>(
    `SELECT dims->>'sessionDate' AS day FROM responses WHERE company_id = $1 AND form_id = $2 AND dims->>'course' = $3 LIMIT 1`,
    [data.companyId, data.formId, COURSE_IDS[0]],
  );
  return rows[0].day;
}

export async function filteredCases(pool: pg.Pool, data: BenchData): Promise<FilteredCase[]> {
  const course = COURSE_IDS[0];
  const day = await rareSessionDate(pool, data);
  return [
    { label: 'dim.year (number, 20%)', query: 'dim.year=3', filters: { dims: { year: '3' } } },
    { label: 'dim.course (entity id, 2%)', query: `dim.course=${course}`, filters: { dims: { course } } },
    { label: 'dim.sessionDate (date, 0.3%)', query: `dim.sessionDate=${day}`, filters: { dims: { sessionDate: day } } },
    { label: 'dim.course & dim.sessionDate', query: `dim.course=${course}&dim.sessionDate=${day}`, filters: { dims: { course, sessionDate: day } } },
    { label: 'from/to (June 2025)', query: 'from=2025-06-01&to=2025-06-30', filters: { from: '2025-06-01', to: '2025-06-30' } },
  ];
}

/**
 * A filtered scan to the end through HTTP, in turns of TURN_PAGES pages with unfiltered pages of
 * the same stretch of the table: after each turn, as many unfiltered later pages up to the day
 * the filter has reached (`to=` that day: the same index walk, bounded; its first page is not
 * timed). The yardstick of the filter's later pages, read at the same moment and from the same
 * pages of the heap, so equally warm or cold: this machine's page cache drops what has not been
 * read for seconds, and its speed drifts by up to 3× within minutes.
 */
async function filteredScan(server: Server, data: BenchData, item: FilteredCase) {
  const times: number[] = [];
  const unfiltered: number[] = [];
  let total = 0;
  let cursor: string | null = null;
  do {
    const turnStart = times.length;
    let day = '';
    while (times.length - turnStart < TURN_PAGES) {
      const { ms, value } = await timed(() => httpPage(server, scanPath(data, item.query), cursor));
      times.push(ms);
      total = value.total ?? total;
      day = value.last?.slice(0, 10) ?? day;
      cursor = value.nextCursor;
      if (!cursor) break;
    }
    let plain: string | null = (await httpPage(server, scanPath(data, `to=${day}`), null)).nextCursor;
    for (let i = turnStart; i < times.length && plain; i++) {
      const { ms, value } = await timed(() => httpPage(server, scanPath(data, `to=${day}`), plain));
      unfiltered.push(ms);
      plain = value.nextCursor;
    }
  } while (cursor);
  const later = times.slice(1);
  const yardstick = unfiltered.length ? percentile(unfiltered, 50) : NaN;
  return {
    filter: item.label,
    total,
    pages: times.length,
    'rows/s': Math.round(total / (sum(times) / 1000)),
    'first page ms': round(times[0]),
    'p50 later pages': later.length ? round(percentile(later, 50)) : '-',
    'p99 later pages': later.length ? round(percentile(later, 99)) : '-',
    'unfiltered p50, same stretch': unfiltered.length ? round(yardstick) : '-',
    'later ÷ unfiltered p50': later.length && unfiltered.length ? round(percentile(later, 50) / yardstick) : '-',
  };
}

/**
 * A single-dim scan's later pages through either path (walking responses_scan_idx, or
 * response_dim_scan's ids and a bitmap heap scan of their responses), raw, alternating per page over pages
 * 2-101: both must return the same rows. What the route's choice (WALK_SHARE in
 * scan-paths.ts) rests on; the unfiltered raw p50 of the full scan is the yardstick.
 */
async function dimPaths(pool: pg.Pool, data: BenchData, item: FilteredCase, unfilteredRawP50: number) {
  const input = scanInput(data, item.filters);
  const first = await sqlPage(pool, input, null);
  const positions: ScanPosition[] = [];
  for (let position = first.next, more = first.more; more && positions.length < SAMPLE_PAGES; ) {
    positions.push(position);
    const page = await sqlPage(pool, input, position);
    position = page.next;
    more = page.more;
  }
  const walk: number[] = [];
  const side: number[] = [];
  for (const position of positions) {
    const walked = await timed(() => sqlPage(pool, input, { ...position, w: true }));
    const viaSide = await timed(() => sqlPage(pool, input, { ...position, w: false }));
    if (walked.value.ids.join() !== viaSide.value.ids.join()) throw new Error(`${item.label}: the two paths return different rows`);
    walk.push(walked.ms);
    side.push(viaSide.ms);
  }
  const p50 = (times: number[]) => round(percentile(times, 50));
  return {
    filter: item.label,
    'route takes': first.next.w ? 'walk' : 'side table',
    pages: positions.length,
    'walk p50 ms': p50(walk),
    'side table p50 ms': p50(side),
    'walk ÷ unfiltered': round(percentile(walk, 50) / unfilteredRawP50),
    'side table ÷ unfiltered': round(percentile(side, 50) / unfilteredRawP50),
  };
}

/** EXPLAIN ANALYZE of the route's statement: the first page (with its total) and the second (keyset). */
async function printPlans(pool: pg.Pool, input: ListResponsesInput, label: string) {
  const first = await sqlPage(pool, input, null);
  for (const [page, position] of [['first page', null], ['second page', first.next]] as const) {
    const { text, values } = pageQuery(input, position);
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`, values });
    console.log(`\n--- ${label}: ${page}\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench');
  const data = await ensureBenchData(database.pool, (line) => console.log(line));
  const server = await startServer(data);
  try {
    console.log(`\nload average before: ${load()}`);
    console.log(
      `Full scan, limit=${LIMIT}&include=answers, up to ${SCAN_PAGES.toLocaleString('en-US')} pages: a raw warm-up pass, then every page ` +
        `via HTTP (server in its own process), raw (pg in this process) plain and prepared, and the bare route as often, in turns of ${TURN_PAGES} pages.\n`,
    );
    const warm = await warmUp(database.pool, scanInput(data));
    const { http, raw, prepared, floor, cpu } = await fullScan(database, server, data);
    const httpDepth = await depthLatency(http.cursors, (cursor) => httpPage(server, scanPath(data), cursor));
    const rawDepth = await depthLatency(raw.positions, (position) => sqlPage(database.pool, scanInput(data), position));
    printTable([
      scanRow('HTTP, the route (undici, real port)', http.times, httpDepth),
      scanRow('HTTP, bare route, one captured page', floor, null),
      scanRow('raw SQL, same statement (pg)', raw.times, rawDepth),
      scanRow('raw SQL, same statement prepared (pg)', prepared.times, null),
    ]);
    console.log(`(warm-up, raw SQL first read: ${rowsPerSecond(warm)} rows/s)`);
    const ratio = sum(raw.times) / sum(http.times);
    const mean = (times: number[]) => sum(times) / times.length;
    console.log(
      `\nHTTP rows/s ÷ raw SQL rows/s = ${ratio.toFixed(2)} (aim ≥ 0.5); ÷ raw prepared = ${(sum(prepared.times) / sum(http.times)).toFixed(2)}; ` +
        `bare route ÷ raw = ${(sum(raw.times) / sum(floor)).toFixed(2)}.`,
    );
    console.log(`The service's own cost, route − bare route − raw SQL (means): ${round(mean(http.times) - mean(floor) - mean(raw.times))} ms per page.`);
    console.log(`Latencies in ms. load average after: ${load()}`);
    console.log(`\nCPU of the full scan's paths (/proc: the server's process, the bench's, the database's backends), per page:\n`);
    printTable([
      cpuRow('HTTP, the route', http.times.length, cpu.http),
      cpuRow('HTTP, bare route', floor.length, cpu.floor),
      cpuRow('raw SQL', raw.times.length, cpu.raw),
      cpuRow('raw SQL, prepared', prepared.times.length, cpu.prepared),
    ]);
    const perCpu = (pages: number, used: PathCpu) => pages / (used.server + used.client + used.database);
    console.log(
      `Per CPU-second, route ÷ raw = ${(perCpu(http.times.length, cpu.http) / perCpu(raw.times.length, cpu.raw)).toFixed(2)}, ` +
        `÷ raw prepared = ${(perCpu(http.times.length, cpu.http) / perCpu(prepared.times.length, cpu.prepared)).toFixed(2)}; ` +
        `the service's own CPU, route − bare route server (Postgres apart): ${round(((cpu.http.server / http.times.length - cpu.floor.server / floor.length) * 1000))} ms per page.`,
    );
    // BENCH_PART=full: the full scan and its depths only (the route's own cost, issue 28 item 4).
    if (process.env.BENCH_PART === 'full') return;

    console.log(`\nFiltered scans through HTTP, limit=${LIMIT}&include=answers, to the end (first page includes the total):\n`);
    const cases = await filteredCases(database.pool, data);
    const results = [];
    for (const item of cases) results.push(await filteredScan(server, data, item));
    printTable(results);
    console.log(
      `(unfiltered: as many later pages up to the day the filter reached, after each turn of ${TURN_PAGES} of its pages; aim: later ÷ unfiltered ≤ 1.5; ` +
        `the full scan's HTTP p50: ${round(percentile(http.times, 50))} ms)`,
    );

    const rawP50 = percentile(raw.times, 50);
    console.log(`\nSingle-dim later pages raw, both paths alternating per page (unfiltered raw p50 ${round(rawP50)} ms); load average ${load()}:\n`);
    const single = [];
    for (const item of cases.filter((c) => Object.keys(c.filters.dims ?? {}).length === 1)) single.push(await dimPaths(database.pool, data, item, rawP50));
    printTable(single);
    await printPlans(database.pool, scanInput(data), 'unfiltered');
    for (const item of cases) await printPlans(database.pool, scanInput(data, item.filters), item.label);
  } finally {
    await server.close();
    await database.close();
  }
}
