import { PgDialect } from 'drizzle-orm/pg-core';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Pool as HttpPool } from 'undici';
import type { Database } from '../src/platform/db/database.js';
import { createCompany, findCompanyBySlug } from '../src/features/companies/create-company.js';
import { importEntities } from '../src/features/entities/import-entities.js';
import { importRoster, type ImportRosterInput } from '../src/features/rosters/import-roster.js';
import { enrollmentPageSql, type ListEnrollmentsInput } from '../src/features/rosters/list-enrollments.js';
import { systemClock } from '../src/lib/clock.js';
import { features } from '../src/features/index.js';
import { idGeneratorFor } from '../src/lib/ids.js';
import { ROSTER_BENCH_DATABASE } from './roster-import-server.js';
import { benchDatabase, printTable } from './support.js';

/**
 * Roster import and the changedSince scan (BENCH_PART=imports runs only the first):
 * 1. a first import of 10,000 enrollment rows (10,000 people, 40 classes) into a new company,
 *    the same payload again (zero changes), then a sync that leaves out 5% (events counted), on the
 *    tables the scan's million enrollments fill (seeded and analyzed first);
 * 2. a full scan of 1,000,000 enrollments (seeded set-wise once, reused by later runs) at
 *    limit=100 through HTTP, the server in its own process, beside the route's own SQL statement
 *    for the same pages sent raw from this process, in turns of 50 pages.
 */

const ROWS = 10_000;
const CLASSES = 40;
const SCAN_COMPANY = 'bench-rosters-scan';
const SCAN_ROWS = 1_000_000;
const LIMIT = 100;
const TURN_PAGES = 50;
/** BENCH_SCAN_PAGES caps the full scan (default: all 10,000 pages). */
const SCAN_PAGES = Number(process.env.BENCH_SCAN_PAGES ?? SCAN_ROWS / LIMIT);
const SERVER_ENTRY = fileURLToPath(new URL('./roster-import-server.ts', import.meta.url));
const dialect = new PgDialect();
const deps = { clock: systemClock, newId: idGeneratorFor(systemClock), eventConsumers: features.flatMap((feature) => feature.eventConsumers ?? []) };

const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function schoolCompany(database: Database, slug: string): Promise<string> {
  const company = await createCompany(database.db, deps, { name: 'Roster bench', slug });
  await importEntities(database.db, deps, { companyId: company.id, incoming: [
    { kind: 'course', code: 'COURSE', name: 'Course' },
    { kind: 'unit', code: 'CAMPUS', name: 'Campus' },
  ] });
  return company.id;
}

function payload(mode: 'upsert' | 'sync'): ImportRosterInput {
  const perClass = ROWS / CLASSES;
  return {
    mode,
    classes: Array.from({ length: CLASSES }, (_, c) => ({ code: `C${c}`, name: `Class ${c}`, courseCode: 'COURSE', orgUnitCode: 'CAMPUS' })),
    people: Array.from({ length: ROWS }, (_, i) => ({ externalId: `P${i}`, name: `Person ${i}`, email: `p${i}@bench.test` })),
    enrollments: Array.from({ length: ROWS }, (_, i) => ({ externalId: `P${i}`, classCode: `C${Math.floor(i / perClass)}`, status: 'enrolled' })),
  };
}

/** 100 people of the million-row company enrolled in a new class: a small delta into a big company. */
function delta(): ImportRosterInput {
  const code = `D${Date.now()}`;
  return {
    mode: 'upsert',
    classes: [{ code, name: 'Delta class', courseCode: 'COURSE', orgUnitCode: 'CAMPUS' }],
    people: [],
    enrollments: Array.from({ length: 100 }, (_, i) => ({ externalId: `Q${i + 1}`, classCode: code, status: 'enrolled' })),
  };
}

async function imports(database: Database, scanCompanyId: string) {
  const companyId = await schoolCompany(database, `bench-rosters-${Date.now()}`);
  const first = await timed(() => importRoster(database.db, deps, { companyId, ...payload('upsert') }));
  const again = await timed(() => importRoster(database.db, deps, { companyId, ...payload('sync') }));
  const partial = payload('sync');
  partial.enrollments = partial.enrollments.filter((_, i) => i % 20 !== 0);
  const sync = await timed(() => importRoster(database.db, deps, { companyId, ...partial }));
  const big = await timed(() => importRoster(database.db, deps, { companyId: scanCompanyId, ...delta() }));
  const changed = (r: typeof first.value.result) => sum(Object.values(r.created)) + sum(Object.values(r.updated)) + r.dropped;
  return [
    { step: 'first import, 10,000 enrollment rows', ms: Math.round(first.ms), changes: changed(first.value.result), events: first.value.events },
    { step: 'same import again (sync)', ms: Math.round(again.ms), changes: changed(again.value.result), events: again.value.events },
    { step: 'sync leaving out 5%', ms: Math.round(sync.ms), changes: changed(sync.value.result), events: sync.value.events },
    { step: '100 enrollments into the 1,000,000-row company', ms: Math.round(big.ms), changes: changed(big.value.result), events: big.value.events },
  ];
}

/** 1,000,000 enrollments (200,000 people in 5 of 500 classes), stamped over a year; once. */
async function ensureScanData(database: Database): Promise<string> {
  const existing = await findCompanyBySlug(database.db, database, { slug: SCAN_COMPANY });
  if (existing) return existing.id;
  const companyId = await schoolCompany(database, SCAN_COMPANY);
  const started = performance.now();
  await database.pool.query(
    `INSERT INTO classes (id, company_id, code, name, course_item_id, org_unit_id, created_at, updated_at)
     SELECT uuidv7_at(now()), $1, 'K' || n, 'Class ' || n,
            (SELECT id FROM entities WHERE company_id = $1 AND kind = 'course'), (SELECT id FROM entities WHERE company_id = $1 AND kind = 'unit'), now(), now()
       FROM generate_series(1, 500) AS n`,
    [companyId],
  );
  await database.pool.query(
    `INSERT INTO people (id, company_id, external_id, name, email, created_at, updated_at)
     SELECT uuidv7_at(now()), $1, 'Q' || n, 'Person ' || n, 'q' || n || '@bench.test', now(), now() FROM generate_series(1, $2::int / 5) AS n`,
    [companyId, SCAN_ROWS],
  );
  await database.pool.query(
    `INSERT INTO enrollments (id, company_id, person_id, class_id, status, status_changed_at, created_at)
     SELECT uuidv7_at(at), $1, p.id, c.id, (ARRAY['enrolled', 'completed', 'dropped'])[1 + (p.n + k) % 3], at, at
       FROM (SELECT id, row_number() OVER () AS n FROM people WHERE company_id = $1) AS p
      CROSS JOIN generate_series(0, 4) AS k
       JOIN LATERAL (SELECT id FROM classes WHERE company_id = $1 AND code = 'K' || (1 + (p.n * 5 + k) % 500)) AS c ON true
      CROSS JOIN LATERAL (SELECT timestamptz '2025-01-01' + ((p.n * 5 + k) * interval '31 seconds') AS at) AS stamp`,
    [companyId],
  );
  await database.pool.query('VACUUM ANALYZE enrollments, people, classes');
  console.log(`seeded ${SCAN_ROWS} enrollments in ${Math.round((performance.now() - started) / 1000)} s`);
  return companyId;
}

async function startServer(companyId: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  const ready = new Promise<{ appUrl: string; token: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { appUrl: string; token: string }));
    void exited.then(([code]) => reject(new Error(`the bench server exited (${code})`)));
  });
  child.send({ companyId });
  const { appUrl, token } = await ready;
  const http = new HttpPool(appUrl, { connections: 1 });
  return {
    async page(cursor: string | null) {
      const query = `/v1/enrollments?limit=${LIMIT}&changedSince=2025-01-01T00:00:00.000Z${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const { statusCode, body } = await http.request({ method: 'GET', path: query, headers: { authorization: `Bearer ${token}` } });
      const json = (await body.json()) as { data: { id: string; statusChangedAt: string }[]; meta: { nextCursor: string | null } };
      if (statusCode !== 200) throw new Error(`HTTP ${statusCode}: ${JSON.stringify(json)}`);
      return json;
    },
    async close() {
      await http.close();
      child.disconnect();
      await exited;
    },
  };
}

async function scan(database: Database, companyId: string) {
  const server = await startServer(companyId);
  const input: ListEnrollmentsInput = { companyId, limit: LIMIT, changedSince: '2025-01-01T00:00:00.000Z' };
  const since = '2025-01-01T00:00:00.000Z';
  const rawPage = async (position: { t: string; id: string } | null) => {
    const { sql, params } = dialect.sqlToQuery(enrollmentPageSql(input, since, position));
    const { rows } = await database.pool.query<{ t: string | null; id: string | null; item: string | null }>({ text: sql, values: params });
    const page = rows.filter((r) => r.id !== null);
    const last = page[Math.min(LIMIT, page.length) - 1];
    return { ids: page.slice(0, LIMIT).map((r) => r.id!), next: last ? { t: last.t!, id: last.id! } : null, more: page.length > LIMIT };
  };
  const http: number[] = [];
  const raw: number[] = [];
  let cursor: string | null = null;
  let position: { t: string; id: string } | null = null;
  let more = true;
  let rows = 0;
  try {
    for (let turn = 0; more && http.length < SCAN_PAGES; turn++) {
      const pages = Math.min(TURN_PAGES, SCAN_PAGES - http.length);
      const httpIds: string[] = [];
      const rawIds: string[] = [];
      const viaHttp = async () => {
        for (let i = 0; i < pages && more; i++) {
          const { ms, value } = await timed(() => server.page(cursor));
          http.push(ms);
          httpIds.push(...value.data.map((r) => r.id));
          cursor = value.meta.nextCursor;
          more = cursor !== null;
        }
      };
      const viaSql = async () => {
        for (let i = 0, rawMore = true; i < pages && rawMore; i++) {
          const { ms, value } = await timed(() => rawPage(position));
          raw.push(ms);
          rawIds.push(...value.ids);
          position = value.next;
          rawMore = value.more;
        }
      };
      for (const path of turn % 2 === 0 ? [viaHttp, viaSql] : [viaSql, viaHttp]) await path();
      if (httpIds.join() !== rawIds.join()) throw new Error(`turn ${turn}: HTTP and SQL rows differ`);
      rows += httpIds.length;
    }
  } finally {
    await server.close();
  }
  const perSecond = (times: number[]) => Math.round(rows / (sum(times) / 1000));
  return [
    { path: 'raw SQL (route statement)', pages: raw.length, rows, seconds: Number((sum(raw) / 1000).toFixed(1)), rowsPerSec: perSecond(raw), ratio: 1 },
    { path: 'GET /v1/enrollments (HTTP)', pages: http.length, rows, seconds: Number((sum(http) / 1000).toFixed(1)), rowsPerSec: perSecond(http), ratio: Number((sum(raw) / sum(http)).toFixed(2)) },
  ];
}

export async function run(): Promise<void> {
  const database = await benchDatabase(ROSTER_BENCH_DATABASE);
  try {
    console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    // The imports run on the table the scan's million rows fill, analyzed, as a new tenant's first
    // sync meets production: the statistics know nothing of the new company.
    const companyId = await ensureScanData(database);
    printTable(await imports(database, companyId));
    console.log('');
    if (process.env.BENCH_PART !== 'imports') printTable(await scan(database, companyId));
    console.log(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await database.close();
  }
}
