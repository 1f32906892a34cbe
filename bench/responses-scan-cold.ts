import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import type { ListResponsesInput } from '../src/features/responses/list-responses.js';
import type { ScanPosition } from '../src/features/responses/scan-paths.js';
import { filteredCases, pageQuery, percentile, round, scanInput, sqlPage, timed } from './responses-scan.js';
import { ensureBenchData, type BenchData } from './responses-scan-seed.js';
import { benchDatabase, benchDatabaseUrl, printTable } from './support.js';

/**
 * The responses-scan data set read from a cold machine: before each measured stretch the
 * Postgres cluster restarts (its shared buffers empty) and the kernel drops its page cache, so
 * every page a scan needs comes from the disk, as on a server whose data outgrows its memory.
 * responses-scan's pages are as warm as that machine's page cache leaves them between runs; this
 * one shows what each path costs when nothing is cached. Per case, PAGES later pages (from the
 * second page on) of the route's statement raw, in rounds that visit every case once, ROUNDS
 * times; the unfiltered scan from the same position is the baseline. Each case runs at the
 * server's effective_io_concurrency and at 16 (Postgres 18's default), set on the session.
 *
 * Needs root and the machine's cluster (Debian's pg_ctlcluster, data under
 * /var/lib/postgresql/<version>/<name>): it restarts that cluster.
 */

const PAGES = 10;
const ROUNDS = 3;
const IO_CONCURRENCY = 16;

interface ColdCase {
  label: string;
  input: ListResponsesInput;
  /** the path a single-dim scan takes (ScanPosition.w); the route's own choice when absent */
  walk?: boolean;
}

/** The cluster that serves the bench database, as pg_ctlcluster names it. */
async function clusterOf(url: string): Promise<[string, string]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
  await client.end();
  const match = /^\/var\/lib\/postgresql\/(\d+)\/([\w-]+)$/.exec(rows[0].data_directory);
  if (!match) throw new Error(`responses-scan-cold restarts a pg_ctlcluster cluster; ${rows[0].data_directory} is not one`);
  return [match[1], match[2]];
}

function coldMachine([version, name]: [string, string]): void {
  execFileSync('pg_ctlcluster', [version, name, 'restart']);
  execFileSync('sync');
  writeFileSync('/proc/sys/vm/drop_caches', '1');
}

/** The position after the case's first page, read before the cache is dropped. */
async function startOf(pool: pg.Pool, item: ColdCase): Promise<ScanPosition> {
  const first = await sqlPage(pool, item.input, null);
  return { ...first.next, w: item.walk ?? first.next.w };
}

/**
 * PAGES later pages from the position on one new connection; ms per page. The statement is
 * planned once first (EXPLAIN without ANALYZE reads no table data), so the catalogs a new
 * connection loads after the restart are not counted as the scan's pages.
 */
async function coldPages(url: string, item: ColdCase, start: ScanPosition, ioConcurrency: number | null): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    if (ioConcurrency !== null) await pool.query(`SET effective_io_concurrency = ${ioConcurrency}`);
    const { text, values } = pageQuery(item.input, start);
    await pool.query({ text: `EXPLAIN ${text}`, values });
    let position = start;
    const { ms } = await timed(async () => {
      for (let page = 0; page < PAGES; page++) position = (await sqlPage(pool, item.input, position)).next;
    });
    return ms / PAGES;
  } finally {
    await pool.end();
  }
}

async function coldCases(pool: pg.Pool, data: BenchData): Promise<ColdCase[]> {
  const dims = await filteredCases(pool, data);
  const single = dims.filter((c) => Object.keys(c.filters.dims ?? {}).length === 1);
  const year = single.find((c) => 'year' in (c.filters.dims ?? {}))!;
  return [
    { label: 'unfiltered (baseline)', input: scanInput(data) },
    // Answers inline in the row (migration 0120) make a page without them read more heap pages.
    { label: 'unfiltered, without answers', input: { ...scanInput(data), includeAnswers: false } },
    ...single.map((c) => ({ label: `${c.label}, route's path`, input: scanInput(data, c.filters) })),
    { label: `${year.label}, walk`, input: scanInput(data, year.filters), walk: true },
  ];
}

export async function run(): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('responses-scan-cold needs root: it restarts the Postgres cluster and drops the page cache');
  const url = benchDatabaseUrl('quorum_bench').toString();
  const cluster = await clusterOf(url);
  const database = await benchDatabase('quorum_bench');
  const data = await ensureBenchData(database.pool, (line) => console.log(line));
  const cases = await coldCases(database.pool, data);
  const starts = await Promise.all(cases.map((item) => startOf(database.pool, item)));
  const serverSetting = (await database.pool.query<{ effective_io_concurrency: string }>('SHOW effective_io_concurrency')).rows[0].effective_io_concurrency;
  await database.close();
  const settings = [null, IO_CONCURRENCY] as const;
  const times = cases.map(() => settings.map(() => [] as number[]));
  console.log(`\nCold later pages, limit=100&include=answers: ${PAGES} pages per case from its second page, each after a cluster restart and a dropped page cache, ${ROUNDS} rounds.`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, item] of cases.entries()) {
      for (const [s, setting] of settings.entries()) {
        coldMachine(cluster);
        times[c][s].push(await coldPages(url, item, starts[c], setting));
      }
    }
    console.log(`  round ${round + 1} / ${ROUNDS}`);
  }
  const p50 = (values: number[]) => percentile(values, 50);
  const baseline = settings.map((_, s) => p50(times[0][s]));
  printTable(
    cases.map((item, c) => ({
      case: item.label,
      [`ms/page, io ${serverSetting} (server)`]: round(p50(times[c][0])),
      [`÷ unfiltered`]: round(p50(times[c][0]) / baseline[0]),
      [`ms/page, io ${IO_CONCURRENCY}`]: round(p50(times[c][1])),
      [`÷ unfiltered `]: round(p50(times[c][1]) / baseline[1]),
    })),
  );
  console.log('(median of the rounds; io: effective_io_concurrency of the session)');
}
