import { PgDialect } from 'drizzle-orm/pg-core';
import Fastify from 'fastify';
import { loadavg } from 'node:os';
import type pg from 'pg';
import { Pool as HttpPool } from 'undici';
import { buildApp } from '../src/app/build-app.js';
import { MemoryRateLimiter } from '../src/app/rate-limiter.js';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import { createKey } from '../src/features/keys/create-key.js';
import { responsePageSql, type ListResponsesInput, type ScanPosition } from '../src/features/responses/list-responses.js';
import { systemClock } from '../src/lib/clock.js';
import { idGeneratorFor } from '../src/lib/ids.js';
import { COURSE_IDS, ensureBenchData, RESPONSE_COUNT, type BenchData } from './responses-scan-seed.js';
import { benchDatabase, printTable } from './support.js';

/**
 * GET /v1/forms/{id}/responses over 1,000,000 responses:
 * 1. a full scan at limit=100&include=answers through HTTP (real port, undici), each page also
 *    read raw with the route's own SQL statement (same pages, alternating which goes first);
 * 2. page latency near the start and past the 900,000th row, replayed alternately from the
 *    cursors the scan handed out, so both depths see the same machine;
 * 3. filtered scans (dims, from/to) to the end, and EXPLAIN ANALYZE of their statements.
 */

const LIMIT = 100;
const SAMPLE_PAGES = 100;
/** BENCH_SCAN_PAGES caps the full scan (default: all 10,000 pages). */
const SCAN_PAGES = Number(process.env.BENCH_SCAN_PAGES ?? Math.ceil(RESPONSE_COUNT / LIMIT));
const DEEP_PAGE = 900_000 / LIMIT;
const dialect = new PgDialect();

type Server = Awaited<ReturnType<typeof startServer>>;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (value: number) => Number(value.toFixed(2));
const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

interface Page {
  ids: string[];
  total?: number;
}

/** The route over HTTP; a page is fetched with the cursor of the previous one (null: the first). */
async function httpPage(server: Server, path: string, cursor: string | null): Promise<Page & { nextCursor: string | null }> {
  const query = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
  const { statusCode, body } = await server.http.request({ method: 'GET', path: `${path}${query}`, headers: { authorization: `Bearer ${server.token}` } });
  const page = (await body.json()) as { data: { id: string }[]; meta: { nextCursor: string | null; total?: number } };
  if (statusCode !== 200) throw new Error(`HTTP ${statusCode}: ${JSON.stringify(page)}`);
  return { ids: page.data.map((item) => item.id), total: page.meta.total, nextCursor: page.meta.nextCursor };
}

/** The statement the route runs, sent raw with pg; the position stands in for the cursor. */
function pageQuery(input: ListResponsesInput, position: ScanPosition | null) {
  const { sql, params } = dialect.sqlToQuery(responsePageSql(input, position));
  return { text: sql, values: params };
}

async function sqlPage(pool: pg.Pool, input: ListResponsesInput, position: ScanPosition | null): Promise<Page & { next: ScanPosition }> {
  const { rows } = await pool.query<{ id: string; createdAt: string; bound?: number }>(pageQuery(input, position));
  const page = rows.slice(0, input.limit);
  const last = page.at(-1)!;
  return { ids: page.map((row) => row.id), next: { t: last.createdAt, id: last.id, s: position?.s ?? rows[0].bound! } };
}

async function startServer(database: Database, companyId: string) {
  const ctx = { config: loadConfig(), db: database.db, pool: database.pool, clock: systemClock, newId: idGeneratorFor(systemClock), limiter: new MemoryRateLimiter() };
  const { token } = await createKey(ctx.db, ctx, { companyId, name: 'responses-scan bench', scopes: ['surveys:read'], rateLimitPerMin: 1_000_000 });
  const app = await buildApp(ctx);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, token, http: new HttpPool(address, { connections: 1 }) };
}

const scanInput = (data: BenchData, filters: Partial<ListResponsesInput> = {}): ListResponsesInput => ({
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
    if (value.ids.length < LIMIT) break;
    position = value.next;
  }
  return times;
}

/** Every page through HTTP and raw, alternating which goes first; both must return the same rows. */
async function fullScan(database: Database, server: Server, data: BenchData) {
  const input = scanInput(data);
  const http = { times: [] as number[], cursors: [] as (string | null)[] };
  const raw = { times: [] as number[], positions: [] as (ScanPosition | null)[] };
  let cursor: string | null = null;
  let position: ScanPosition | null = null;
  do {
    const viaHttp = () => timed(() => httpPage(server, scanPath(data), cursor));
    const viaSql = () => timed(() => sqlPage(database.pool, input, position));
    const [a, b] = http.times.length % 2 === 0 ? [await viaHttp(), await viaSql()] : [undefined, await viaSql()];
    const httpResult = a ?? (await viaHttp());
    if (httpResult.value.ids.join() !== b.value.ids.join()) throw new Error(`page ${http.times.length + 1}: HTTP and SQL rows differ`);
    http.times.push(httpResult.ms);
    http.cursors.push(cursor);
    raw.times.push(b.ms);
    raw.positions.push(position);
    cursor = httpResult.value.nextCursor;
    position = b.value.next;
  } while (cursor && http.times.length < SCAN_PAGES);
  return { http, raw };
}

/** Pages 2-101 and the 100 pages past row 900,000, read again in turns: shallow, deep, shallow, ... */
async function depthLatency<P>(starts: P[], read: (start: P) => Promise<unknown>) {
  const shallow: number[] = [];
  const deep: number[] = [];
  for (let i = 0; i < SAMPLE_PAGES && DEEP_PAGE + i < starts.length; i++) {
    shallow.push((await timed(() => read(starts[1 + i]))).ms);
    deep.push((await timed(() => read(starts[DEEP_PAGE + i]))).ms);
  }
  return { shallow, deep };
}

function scanRow(label: string, times: number[], depth: { shallow: number[]; deep: number[] } | null) {
  const row: Record<string, string | number> = {
    path: label,
    pages: times.length,
    'rows/s': Math.round((times.length * LIMIT) / (sum(times) / 1000)),
    'page ms (mean)': round(sum(times) / times.length),
  };
  if (depth && depth.deep.length > 0) {
    Object.assign(row, {
      'p50 pages 2-101': round(percentile(depth.shallow, 50)),
      'p99 pages 2-101': round(percentile(depth.shallow, 99)),
      'p50 past row 900k': round(percentile(depth.deep, 50)),
      'p99 past row 900k': round(percentile(depth.deep, 99)),
      'deep/shallow p50': round(percentile(depth.deep, 50) / percentile(depth.shallow, 50)),
    });
  }
  return row;
}

interface FilteredCase {
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

async function filteredCases(pool: pg.Pool, data: BenchData): Promise<FilteredCase[]> {
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

async function filteredScan(server: Server, data: BenchData, item: FilteredCase) {
  const times: number[] = [];
  let total = 0;
  let cursor: string | null = null;
  do {
    const { ms, value } = await timed(() => httpPage(server, scanPath(data, item.query), cursor));
    times.push(ms);
    total = value.total ?? total;
    cursor = value.nextCursor;
  } while (cursor);
  const later = times.slice(1);
  return {
    filter: item.label,
    total,
    pages: times.length,
    'rows/s': Math.round(total / (sum(times) / 1000)),
    'first page ms': round(times[0]),
    'p50 later pages': later.length ? round(percentile(later, 50)) : '-',
    'p99 later pages': later.length ? round(percentile(later, 99)) : '-',
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

/**
 * The floor any HTTP route pays for such a page: a bare Fastify route sending one captured page
 * body (about 200 KB) as is, fetched and parsed by the same client.
 */
async function transportFloor(server: Server, data: BenchData): Promise<number[]> {
  const { body } = await server.http.request({ method: 'GET', path: scanPath(data), headers: { authorization: `Bearer ${server.token}` } });
  const captured = await body.text();
  const bare = Fastify({ logger: false });
  bare.get('/page', async (_request, reply) => reply.type('application/json').send(captured));
  const client = new HttpPool(await bare.listen({ port: 0, host: '127.0.0.1' }), { connections: 1 });
  const times: number[] = [];
  for (let i = 0; i < 2 * SAMPLE_PAGES; i++) {
    times.push((await timed(async () => (await (await client.request({ method: 'GET', path: '/page' })).body.json()) as unknown)).ms);
  }
  await client.close();
  await bare.close();
  return times;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench');
  const data = await ensureBenchData(database.pool, (line) => console.log(line));
  const server = await startServer(database, data.companyId);
  try {
    console.log(`\nload average before: ${load()}`);
    console.log(`Full scan, limit=${LIMIT}&include=answers, up to ${SCAN_PAGES.toLocaleString('en-US')} pages: a raw warm-up pass, then every page via HTTP and raw.\n`);
    const warm = await warmUp(database.pool, scanInput(data));
    const { http, raw } = await fullScan(database, server, data);
    const httpDepth = await depthLatency(http.cursors, (cursor) => httpPage(server, scanPath(data), cursor));
    const rawDepth = await depthLatency(raw.positions, (position) => sqlPage(database.pool, scanInput(data), position));
    printTable([
      scanRow('HTTP (undici, real port)', http.times, httpDepth),
      scanRow('raw SQL, same statement (pg)', raw.times, rawDepth),
    ]);
    const floor = await transportFloor(server, data);
    console.log(`(warm-up, raw SQL first read: ${scanRow('', warm, null)['rows/s']} rows/s)`);
    console.log(`(transport floor, a bare route sending one captured page: p50 ${round(percentile(floor, 50))} ms, ${scanRow('', floor, null)['rows/s']} rows/s)`);
    const ratio = sum(raw.times) / sum(http.times);
    console.log(`\nHTTP rows/s ÷ raw SQL rows/s = ${ratio.toFixed(2)} (aim ≥ 0.5). Latencies in ms. load average after: ${load()}`);

    console.log(`\nFiltered scans through HTTP, limit=${LIMIT}&include=answers, to the end (first page includes the total):\n`);
    const cases = await filteredCases(database.pool, data);
    const results = [];
    for (const item of cases) results.push(await filteredScan(server, data, item));
    printTable(results);
    await printPlans(database.pool, scanInput(data), 'unfiltered');
    for (const item of cases) await printPlans(database.pool, scanInput(data, item.filters), item.label);
  } finally {
    await server.http.close();
    await server.app.close();
    await database.close();
  }
}
