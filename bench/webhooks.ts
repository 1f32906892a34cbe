import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/platform/config.js';
import type { Database } from '../src/platform/db/database.js';
import { systemClock, type Clock } from '../src/lib/clock.js';
import { createContext, type Context } from '../src/platform/context.js';
import { createCompany } from '../src/features/companies/create-company.js';
import { emitEvent } from '../src/features/events/emit-event.js';
import { goalReachedData } from '../src/features/events/catalog.js';
import { createSubscription } from '../src/features/webhooks/create-subscription.js';
import { startDeliveryLoop } from '../src/features/webhooks/deliver-loop.js';
import { benchDatabase, benchDatabaseUrl, printTable, processCpuSeconds } from './support.js';

/**
 * Webhook delivery: EVENTS events (one transaction each, EMITTERS at a time) to 3 subscriptions
 * served by one loopback receiver running in a worker thread, so it does not share the delivery
 * loop's event loop. Latency is commit (the emitting transaction returned) to receipt (the
 * receiver had the whole body). Runs: a backlog (every event committed first, then the loop
 * started: the delivery throughput alone), a burst (events emitted as fast as they commit while
 * the loop delivers, in the same Node thread), a steady stream at STEADY_RATE events/s (the
 * latency when delivery keeps up), and a burst with one subscription failing half its requests.
 * The baseline is the same number of bare POSTs to the same receiver, as many at once as the
 * loop allows, no database.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const STEADY_RATE = Number(process.env.BENCH_RATE ?? 400);
const EMITTERS = 8;
/** Which runs, by key (baseline,backlog,burst,steady,failing); all by default. */
const RUNS = new Set((process.env.BENCH_RUNS ?? 'baseline,backlog,burst,steady,failing').split(','));
const PATHS = ['/a', '/b', '/c'];
/** The loop's default requests under way per subscription. */
const SLOTS_PER_SUBSCRIPTION = 4;
/** The failing run's clock runs this much faster, so the 5 s first retry comes after 50 ms. */
const CLOCK_SPEED = 100;
const DELIVERY_TIMEOUT_MS = 10 * 60_000;
/** BENCH_SPLIT=1: the delivery loop runs in its own process (the worker tier), the emitters in this one (the api tier). */
const SPLIT = process.env.BENCH_SPLIT === '1';
/** BENCH_HOG=1: a process spinning one core runs beside the bench (the neighbour of a shared machine). */
const HOG = process.env.BENCH_HOG === '1';
const SECRET_KEY = process.env.SECRET_KEY ?? 'bench-secret-key-that-is-long-enough-0000';
const DATABASE = 'quorum_bench_webhooks';

interface DeliveryTier {
  /** CPU seconds the delivery loop's process has used so far (null when it shares this process). */
  cpuSeconds(): number | null;
  stop(): Promise<void>;
}

/** The delivery loop in a child process (bench/webhooks-worker-child.ts); stop() ends it after its claimed work. */
async function startWorkerProcess(): Promise<DeliveryTier> {
  // node itself (not the tsx launcher, which runs node as its own child): its pid is the worker's, for its CPU.
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./webhooks-worker-child.ts', import.meta.url))], {
    env: { ...process.env, DATABASE_URL: benchDatabaseUrl(DATABASE).toString(), SECRET_KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
  return {
    cpuSeconds: () => processCpuSeconds(child.pid),
    stop: () => new Promise<void>((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

interface Receipt {
  path: string;
  id: string;
  at: number;
  status: number;
}

/** The receiver: plain JS evaluated in a worker thread; answers 500 to the first request of each event on failingPath. */
const RECEIVER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
let receipts = [];
const failedOnce = new Set();
const delivered = new Set();
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = req.headers['webhook-id'];
    let status = 200;
    if (req.url === workerData.failingPath && !failedOnce.has(id)) { failedOnce.add(id); status = 500; }
    receipts.push({ path: req.url, id, at: Date.now(), status });
    if (status === 200) delivered.add(req.url + ' ' + id);
    res.writeHead(status).end();
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', (message) => {
  if (message === 'count') parentPort.postMessage(delivered.size);
  if (message === 'report') { parentPort.postMessage(receipts); receipts = []; }
});
`;

class Receiver {
  private constructor(
    private readonly worker: Worker,
    readonly port: number,
  ) {}

  static async start(failingPath: string | null): Promise<Receiver> {
    const worker = new Worker(RECEIVER_SOURCE, { eval: true, workerData: { failingPath } });
    const port = await new Promise<number>((resolve) => worker.once('message', resolve));
    return new Receiver(worker, port);
  }

  private ask<T>(message: string): Promise<T> {
    return new Promise<T>((resolve) => {
      this.worker.once('message', resolve);
      this.worker.postMessage(message);
    });
  }

  successes = () => this.ask<number>('count');
  report = () => this.ask<Receipt[]>('report');
  stop = () => this.worker.terminate();
}

/** A clock running `speed` times faster than the wall clock from now on. */
function fastClock(speed: number): Clock {
  const start = Date.now();
  return { now: () => new Date(start + (Date.now() - start) * speed) };
}

/** Emits every event; with a rate, event n is not emitted before n / rate seconds. */
async function emitAll(ctx: Context, companyId: string, rate: number | null): Promise<{ committedAt: Map<string, number>; offered: number }> {
  const committedAt = new Map<string, number>();
  const start = Date.now();
  let next = 0;
  const emitter = async () => {
    while (next < EVENTS) {
      const n = next++;
      const wait = rate ? start + (n * 1000) / rate - Date.now() : 0;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const event = await ctx.db.transaction((tx) =>
        emitEvent(tx, ctx, { companyId, type: 'form.goal_reached', data: goalReachedData({ formId: 'bench', formName: 'Bench', responseCount: n, goal: 1, alertRuleId: null }) }),
      );
      committedAt.set(event.id, Date.now());
    }
  };
  await Promise.all(Array.from({ length: EMITTERS }, emitter));
  // What the emitters achieved: under load they may not reach the rate asked for.
  return { committedAt, offered: EVENTS / ((Date.now() - start) / 1000) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

type Row = Record<string, string | number>;

/** The ceiling of this machine for the same traffic: bare POSTs (round-trip latency), no database. */
async function bareBaseline(): Promise<Row> {
  const receiver = await Receiver.start(null);
  const agent = new Agent();
  const total = EVENTS * PATHS.length;
  const latencies: number[] = [];
  let next = 0;
  const poster = async () => {
    while (next < total) {
      const n = next++;
      const sent = performance.now();
      const url = `http://127.0.0.1:${receiver.port}${PATHS[n % PATHS.length]}`;
      const response = await request(url, { method: 'POST', body: '{}', headers: { 'webhook-id': String(n) }, dispatcher: agent });
      await response.body.dump();
      latencies.push(performance.now() - sent);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: PATHS.length * SLOTS_PER_SUBSCRIPTION }, poster));
  const seconds = (Date.now() - started) / 1000;
  await agent.close();
  await receiver.stop();
  latencies.sort((a, b) => a - b);
  return {
    run: `baseline: bare POSTs, ${PATHS.length * SLOTS_PER_SUBSCRIPTION} at a time`,
    events: '-',
    deliveries: total,
    'requests (incl. retries, dups)': total,
    'all delivered after s': seconds,
    'deliveries/s': Math.round(total / seconds),
    'p50 ms': Math.round(percentile(latencies, 50)),
    'p99 ms': Math.round(percentile(latencies, 99)),
    'per receiver /a /b /c': '-',
    missing: 0,
    'events/s offered': '-',
    'worker CPU s': '-',
    'deliveries per worker CPU-s': '-',
  };
}

/** Deliveries per second, commit-to-first-success latency, and which events each path never got. */
function summarise(label: string, emitted: { committedAt: Map<string, number>; offered: number }, receipts: Receipt[], started: number, workerCpu: number | null): Row {
  const { committedAt } = emitted;
  const firstSuccess = new Map<string, number>();
  for (const r of receipts) {
    const key = `${r.path} ${r.id}`;
    if (r.status === 200 && !firstSuccess.has(key)) firstSuccess.set(key, r.at);
  }
  const latencies = [...firstSuccess].map(([key, at]) => at - committedAt.get(key.split(' ')[1])!).sort((a, b) => a - b);
  const lastReceipt = Math.max(...firstSuccess.values());
  const perPath = PATHS.map((path) => [...committedAt.keys()].filter((id) => firstSuccess.has(`${path} ${id}`)).length);
  return {
    run: label,
    events: committedAt.size,
    deliveries: firstSuccess.size,
    'requests (incl. retries, dups)': receipts.length,
    'all delivered after s': (lastReceipt - started) / 1000,
    'deliveries/s': Math.round(firstSuccess.size / ((lastReceipt - started) / 1000)),
    'p50 ms': percentile(latencies, 50),
    'p99 ms': percentile(latencies, 99),
    'per receiver /a /b /c': perPath.join(' / '),
    missing: PATHS.length * committedAt.size - firstSuccess.size,
    'events/s offered': Math.round(emitted.offered),
    'worker CPU s': workerCpu === null ? '-' : workerCpu,
    'deliveries per worker CPU-s': workerCpu === null ? '-' : Math.round(firstSuccess.size / workerCpu),
  };
}

interface Scenario {
  key: string;
  label: string;
  /** Events per second, or null for as fast as they commit. */
  rate: number | null;
  /** Commit every event before the loop starts (throughput of delivery alone, no latency). */
  backlog?: boolean;
  failingPath: string | null;
  clock: Clock;
}

async function runScenario(database: Database, { label, rate, backlog, failingPath, clock }: Scenario) {
  const receiver = await Receiver.start(failingPath);
  const config = { ...loadConfig({ ...process.env, SECRET_KEY }), webhookAllowPrivateTargets: true };
  const ctx = await createContext({ ...config, logLevel: 'silent', redisUrl: null }, { database, clock });
  const company = await createCompany(ctx.db, ctx, { name: 'Bench', slug: `bench-${Date.now()}` });
  for (const path of PATHS) await createSubscription(ctx.db, ctx, { companyId: company.id, url: `http://127.0.0.1:${receiver.port}${path}` });
  // A lease long in wall time even when the clock runs fast.
  const startLoop = async (): Promise<DeliveryTier> => {
    if (SPLIT && clock === systemClock) return startWorkerProcess();
    const loop = await startDeliveryLoop(ctx, { leaseMs: 30_000 * (clock === systemClock ? 1 : CLOCK_SPEED) });
    return { cpuSeconds: () => null, stop: () => loop.stop() };
  };
  const early = backlog ? null : await startLoop();
  const earlyCpu = early?.cpuSeconds() ?? null;
  let started = Date.now();
  const emitted = await emitAll(ctx, company.id, rate);
  if (backlog) started = Date.now();
  const loop = early ?? (await startLoop());
  const cpuAtStart = early ? earlyCpu : loop.cpuSeconds();
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  while ((await receiver.successes()) < EVENTS * PATHS.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const cpuAtEnd = loop.cpuSeconds();
  const receipts = await receiver.report();
  await loop.stop();
  await receiver.stop();
  await ctx.close();
  // The worker's start-up (its modules) is not delivery work: counted from when it was ready.
  const workerCpu = cpuAtStart === null || cpuAtEnd === null ? null : Math.round((cpuAtEnd - cpuAtStart) * 100) / 100;
  const row = summarise(label, emitted, receipts, started, workerCpu);
  return backlog ? { ...row, 'p50 ms': '-', 'p99 ms': '-' } : row;
}

export async function run(): Promise<void> {
  const database = await benchDatabase(DATABASE);
  const hog = HOG ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : null;
  console.log(`Webhooks: ${EVENTS} events x ${PATHS.length} subscriptions, ${EMITTERS} emitting transactions at a time, one loopback receiver (worker thread)${SPLIT ? ', delivery loop in its own process' : ''}${HOG ? ', a CPU hog beside it' : ''}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const scenarios: Scenario[] = [
    { key: 'backlog', label: 'backlog drained, all answer 200', rate: null, backlog: true, failingPath: null, clock: systemClock },
    { key: 'burst', label: 'burst, all answer 200', rate: null, failingPath: null, clock: systemClock },
    { key: 'steady', label: `steady ${STEADY_RATE} events/s, all 200`, rate: STEADY_RATE, failingPath: null, clock: systemClock },
    { key: 'failing', label: `burst, /b fails half (clock x${CLOCK_SPEED})`, rate: null, failingPath: '/b', clock: fastClock(CLOCK_SPEED) },
  ];
  const rows = RUNS.has('baseline') ? [await bareBaseline()] : [];
  for (const scenario of scenarios.filter(({ key }) => RUNS.has(key))) {
    // Each run starts from empty tables: its own database, so nothing else is lost.
    await database.pool.query('TRUNCATE webhook_attempts, webhook_deliveries, webhook_subscriptions, events');
    rows.push(await runScenario(database, scenario));
  }
  // Without the baseline run there is nothing to compare with: the column says so instead of NaN.
  const ceiling = RUNS.has('baseline') ? Number(rows[0]['deliveries/s']) : null;
  printTable(rows.map((row) => ({ ...row, 'vs baseline': ceiling === null ? 'not run' : Number(row['deliveries/s']) / ceiling })));
  hog?.kill();
  await database.close();
  if (rows.some((row) => Number(row.missing) > 0)) throw new Error('some events were not delivered');
}
