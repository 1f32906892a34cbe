import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTopology, stopTopology } from '../scripts/topology/topology.js';
import { prepareTenant, startOutlets, trafficMix } from './soak-mix.js';

/**
 * `BENCH_SCALE=1 npm run bench -- soak` (issue 27, item 4): the soak's mix without faults on a
 * topology of 1 API process and 1 worker, then of 2 and 2, SCALE_SECONDS each (default 45) with
 * SOAK_CLIENTS clients (default 8), BENCH_RUNS rounds (default 3, medians); throughput (2xx a
 * second), the quorum processes' CPU seconds and the machine's, side by side with their ratio.
 */

interface Figures {
  rps: number;
  /** 2xx answers per CPU-second of the quorum processes (API and workers). */
  perQuorumCpu: number;
  /** 2xx answers per CPU-second of the whole machine (Postgres, HAProxy, Redis and the clients too). */
  perMachineCpu: number;
  machineBusy: number;
}

const TICKS = 100;

function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** Busy and total CPU seconds of the machine so far (/proc/stat, all cores). */
function machineCpu(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = values.map(Number);
  const idle = n[3] + n[4];
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / TICKS, total: total / TICKS };
}

async function measure(apis: number, workers: number, seconds: number, clients: number, log: (line: string) => void): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-scale-'));
  const outlets = await startOutlets();
  try {
    const state = await startTopology({ dir, apis, workers, source: process.env.BENCH_SOURCE === '1', env: outlets.env, log });
    const tenant = await prepareTenant(state, outlets.receiver, `scale-${Date.now().toString(36)}`, 1_000_000);
    const quorum = state.processes.filter((p) => /^(api|worker)\d+$/.test(p.name)).map((p) => p.pid);
    // A short warm-up (JIT, pools, the replica's caches), not counted.
    await trafficMix(state.balancerUrl, tenant, outlets.sink).run(clients, Date.now() + 5_000);
    const mix = trafficMix(state.balancerUrl, tenant, outlets.sink);
    const cpu0 = quorum.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
    const machine0 = machineCpu();
    const started = performance.now();
    await mix.run(clients, Date.now() + seconds * 1000);
    const elapsed = (performance.now() - started) / 1000;
    const cpu = quorum.reduce((sum, pid) => sum + processCpuSeconds(pid), 0) - cpu0;
    const machine1 = machineCpu();
    const ok = mix.requests.filter((r) => r.status >= 200 && r.status < 300).length;
    const machineBusy = machine1.busy - machine0.busy;
    return { rps: ok / elapsed, perQuorumCpu: ok / cpu, perMachineCpu: ok / machineBusy, machineBusy: machineBusy / elapsed };
  } finally {
    await stopTopology(dir, log);
    await outlets.sink.close();
    await outlets.receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function runScale(log: (line: string) => void): Promise<void> {
  const seconds = Number(process.env.SCALE_SECONDS ?? 45);
  const clients = Number(process.env.SOAK_CLIENTS ?? 8);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  console.log(`load average at start: ${loadavg().map((n) => n.toFixed(2)).join(' ')}; ${seconds} s a topology, ${clients} clients, ${runs} rounds`);
  const one: Figures[] = [];
  const two: Figures[] = [];
  for (let round = 1; round <= runs; round++) {
    one.push(await measure(1, 1, seconds, clients, log));
    two.push(await measure(2, 2, seconds, clients, log));
    const [a, b] = [one.at(-1)!, two.at(-1)!];
    console.log(`round ${round}: 1 api + 1 worker ${a.rps.toFixed(1)}/s, 2 api + 2 workers ${b.rps.toFixed(1)}/s, ratio ${(b.rps / a.rps).toFixed(2)}`);
  }
  const row = (name: string, pick: (f: Figures) => number, digits = 1) => {
    const [a, b] = [median(one.map(pick)), median(two.map(pick))];
    console.log(`${name.padEnd(34)} ${a.toFixed(digits).padStart(10)} ${b.toFixed(digits).padStart(10)} ${(b / a).toFixed(2).padStart(7)}`);
  };
  console.log(`${'median of the rounds'.padEnd(34)} ${'1 api+1 w'.padStart(10)} ${'2 api+2 w'.padStart(10)} ${'ratio'.padStart(7)}`);
  row('2xx answers a second', (f) => f.rps);
  row('2xx per quorum CPU-second', (f) => f.perQuorumCpu);
  row('2xx per machine CPU-second', (f) => f.perMachineCpu);
  row('machine cores busy', (f) => f.machineBusy, 2);
  console.log(`load average at end: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
}
