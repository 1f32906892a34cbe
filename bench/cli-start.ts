import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import pg from 'pg';
import { benchDatabase, benchDatabaseUrl, printTable } from './support.js';

const exec = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CLI = 'dist/cli/main.js';

/** CPU (ms) from /proc/<pid>/stat in 100 Hz ticks: `own` utime + stime, or the finished children's cutime + cstime. */
function procCpu(pid: number | 'self', which: 'own' | 'children'): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const at = which === 'own' ? 11 : 13;
  return (Number(fields[at]) + Number(fields[at + 1])) * 10;
}
const childrenCpu = () => procCpu('self', 'children');

/** Wall and CPU time (ms) of one process run to its end. */
async function timeOnce(args: string[], env: NodeJS.ProcessEnv): Promise<{ wall: number; cpu: number }> {
  const cpuBefore = childrenCpu();
  const started = process.hrtime.bigint();
  await exec(process.execPath, args, { env });
  return { wall: Number(process.hrtime.bigint() - started) / 1e6, cpu: childrenCpu() - cpuBefore };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The least any database command can cost: Node, pg, a connection and one query (the yardstick of "near node -e 0"). */
const BARE_CLIENT = `const pg = require('pg'); const c = new pg.Client(process.env.DATABASE_URL);
c.connect().then(() => c.query('SELECT id, slug, name FROM companies ORDER BY slug')).then((r) => { console.log(r.rows.length); return c.end(); });`;

const STATS = ['stats', '--company', 'demo', '--form', 'term-evaluation', '--group-by', 'dim.cohort'];

/** `quorum api` on a free port, ready: the API's own statistics call is timed against it. */
async function startApi(env: NodeJS.ProcessEnv): Promise<{ url: string; cpu: () => number; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, [CLI, 'api'], { env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 300; tries++) {
    if (await fetch(`${url}/readyz`).then((res) => res.ok, () => false)) return { url, cpu: () => procCpu(child.pid!, 'own'), stop: () => child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('quorum api did not become ready in 30 s');
}

/**
 * Start-up of the operator CLI against a migrated database: `--help` (registration only),
 * `company list` (runtime, context, one query) and `stats` of the demo's term-evaluation form by
 * cohort (issue 26 item 5), each beside `node -e 0` run in the same loop, so a busy machine slows
 * all of them alike; and the same statistics through a running `quorum api` (HTTP, warm), the
 * work the CLI's `stats` adds to its start-up should stay near. The database is made afresh, so
 * the first `stats` after the demo's seeding is timed on its own.
 */
export async function run(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const url = benchDatabaseUrl('quorum_bench_cli');
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${url.pathname.slice(1)}`);
  await admin.end();
  const database = await benchDatabase('quorum_bench_cli');
  await database.close();
  const env = { ...process.env, DATABASE_URL: url.toString(), QUORUM_DATA_DIR: '' };
  await exec(process.execPath, [CLI, 'demo'], { env });
  const first = await timeOnce([CLI, ...STATS], env);
  const { stdout } = await exec(process.execPath, [CLI, '--json', 'key', 'create', '--company', 'demo', '--name', 'bench', '--scopes', 'reports:read,surveys:read', '--rate-limit', '100000'], { env });
  const token = (JSON.parse(stdout) as { token: string }).token;
  const api = await startApi(env);
  try {
    const headers = { authorization: `Bearer ${token}` };
    const forms = (await (await fetch(`${api.url}/v1/forms`, { headers })).json()) as { data: { id: string; slug: string }[] };
    const formId = forms.data.find((form) => form.slug === 'term-evaluation')?.id;
    const statsUrl = `${api.url}/v1/forms/${formId}/report?groupBy=dim.cohort`;
    const apiCall = async () => {
      const started = process.hrtime.bigint();
      const res = await fetch(statsUrl, { headers });
      if (!res.ok) throw new Error(`the API's report answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    await apiCall(); // warm-up: the server's first request compiles its route
    const cases: Record<string, string[]> = {
      'node -e 0 (baseline)': ['-e', '0'],
      'bare pg client: connect, one query': ['-e', BARE_CLIENT],
      'quorum --help': [CLI, '--help'],
      'quorum company list': [CLI, 'company', 'list'],
      'quorum stats --group-by dim.cohort': [CLI, ...STATS],
    };
    const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, { wall: [] as number[], cpu: [] as number[] }]));
    const apiWall: number[] = [];
    // The API process's own CPU over all its calls: ticks are 10 ms, so one call's is read as the mean.
    let apiCpu = 0;
    for (let i = 0; i < RUNS; i++) {
      for (const [name, args] of Object.entries(cases)) {
        const { wall, cpu } = await timeOnce(args, env);
        samples[name].wall.push(wall);
        samples[name].cpu.push(cpu);
      }
      const cpuBefore = api.cpu();
      apiWall.push(await apiCall());
      apiCpu += api.cpu() - cpuBefore;
    }
    const base = median(samples['node -e 0 (baseline)'].wall);
    printTable([
      ...Object.entries(samples).map(([name, s]) => ({
        command: name,
        'wall median ms': Math.round(median(s.wall)),
        'cpu median ms': Math.round(median(s.cpu)),
        'wall / baseline': median(s.wall) / base,
      })),
      { command: 'first quorum stats after seeding (once)', 'wall median ms': Math.round(first.wall), 'cpu median ms': Math.round(first.cpu), 'wall / baseline': first.wall / base },
      { command: 'GET /v1/forms/{id}/report?groupBy=dim.cohort (running API)', 'wall median ms': Math.round(median(apiWall)), 'cpu median ms': `${Math.round(apiCpu / RUNS)} (mean)`, 'wall / baseline': median(apiWall) / base },
    ]);
    // stats and company list share the start-up (runtime, context, migration check): their difference is stats' own work.
    const own = (column: 'wall' | 'cpu') => median(samples['quorum stats --group-by dim.cohort'][column]) - median(samples['quorum company list'][column]);
    const cpu = (name: string) => median(samples[name].cpu);
    console.log(`company list over the bare client: ${(cpu('quorum company list') / cpu('bare pg client: connect, one query')).toFixed(2)}× its CPU (node -e 0: ${cpu('node -e 0 (baseline)')} ms, bare client ${cpu('bare pg client: connect, one query')} ms)`);
    console.log(`stats' own work (stats − company list): wall ${Math.round(own('wall'))} ms, CPU ${Math.round(own('cpu'))} ms; the API's call ${Math.round(median(apiWall))} ms wall, ${Math.round(apiCpu / RUNS)} ms CPU of the API process`);
  } finally {
    api.stop();
  }
}
