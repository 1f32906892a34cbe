import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { benchDatabase, benchDatabaseUrl, printTable } from './support.js';

const exec = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The app's start-up (buildApp + app.ready(), then one /v1/me answer) with response serializers
 * compiled on first use (what ships) beside all compiled at start-up (Fastify's default), each run
 * in a fresh process (bench/app-start-child.ts through tsx), the two alternating so load hits both alike.
 */
export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench_app_start');
  await database.close();
  const url = benchDatabaseUrl('quorum_bench_app_start').toString();
  const samples: Record<string, { ready: number[]; first: number[] }> = { lazy: { ready: [], first: [] }, eager: { ready: [], first: [] } };
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ['eager', 'lazy'] as const) {
      const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'bench/app-start-child.ts', mode, url]);
      const line = JSON.parse(stdout.trim().split('\n').pop()!) as { ready: number; firstAnswer: number; status: number };
      if (line.status !== 401) throw new Error(`/v1/me without a key answered ${line.status}`);
      samples[mode].ready.push(line.ready);
      samples[mode].first.push(line.firstAnswer);
    }
  }
  printTable(
    Object.entries(samples).map(([mode, s]) => ({
      serializers: mode === 'lazy' ? 'compiled on first use (shipped)' : 'all at start-up (baseline)',
      'ready ms (median)': Math.round(median(s.ready)),
      'first answer ms (median)': Math.round(median(s.first)),
      'ready / baseline': median(s.ready) / median(samples.eager.ready),
    })),
  );
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}
