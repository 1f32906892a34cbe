import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTopology, stopTopology } from '../scripts/topology/topology.js';
import { startOutlets } from './soak-mix.js';
import { printSoak, soakWithFaults } from './soak-run.js';

/**
 * `npm run bench -- soak` (issue 27, item 2): the topology of scripts/topology (2 API processes
 * behind HAProxy, 1 worker, a streaming replica) under the mix for SOAK_SECONDS (default 180) with
 * SOAK_CLIENTS clients (default 6), an API process and the worker SIGKILLed and restarted, the
 * replica stopped and restarted; then the checks. BENCH_SCALE=1 runs the scale comparison instead
 * (bench/soak-scale.ts).
 */
const log = (line: string) => process.stderr.write(`[soak] ${line}\n`);

export async function run(): Promise<void> {
  if (process.env.BENCH_SCALE === '1') return (await import('./soak-scale.js')).runScale(log);
  const durationMs = Number(process.env.SOAK_SECONDS ?? 180) * 1000;
  const clients = Number(process.env.SOAK_CLIENTS ?? 6);
  const dir = mkdtempSync(join(tmpdir(), 'quorum-soak-'));
  const outlets = await startOutlets();
  console.log(`load average at start: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  try {
    await startTopology({ dir, apis: 2, workers: 1, source: process.env.BENCH_SOURCE === '1', env: outlets.env, log });
    const report = await soakWithFaults({ dir, sink: outlets.sink, receiver: outlets.receiver, durationMs, clients, log });
    printSoak(report, (line) => console.log(line));
  } finally {
    await stopTopology(dir, log);
    await outlets.sink.close();
    await outlets.receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`load average at end: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
}
