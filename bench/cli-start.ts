import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { benchDatabase, benchDatabaseUrl, printTable } from './support.js';

const exec = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CLI = 'dist/cli/main.js';

/** CPU used by this process's finished children so far (ms): cutime + cstime of /proc/self/stat, in 100 Hz ticks. */
function childrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Wall and CPU time (ms) of one process run to its end. */
async function timeOnce(args: string[], env: NodeJS.ProcessEnv): Promise<{ wall: number; cpu: number }> {
  const cpuBefore = childrenCpu();
  const started = process.hrtime.bigint();
  await exec(process.execPath, args, { env });
  return { wall: Number(process.hrtime.bigint() - started) / 1e6, cpu: childrenCpu() - cpuBefore };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Start-up of the operator CLI against a migrated database: `--help` (registration only) and
 * `company list` (runtime, context, one query), each beside `node -e 0` run in the same loop,
 * so a busy machine slows all of them alike.
 */
export async function run(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const database = await benchDatabase('quorum_bench_cli');
  await database.close();
  const env = { ...process.env, DATABASE_URL: benchDatabaseUrl('quorum_bench_cli').toString(), QUORUM_DATA_DIR: '' };
  const cases: Record<string, string[]> = { 'node -e 0 (baseline)': ['-e', '0'], 'quorum --help': [CLI, '--help'], 'quorum company list': [CLI, 'company', 'list'] };
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, { wall: [] as number[], cpu: [] as number[] }]));
  for (let i = 0; i < RUNS; i++) {
    for (const [name, args] of Object.entries(cases)) {
      const { wall, cpu } = await timeOnce(args, env);
      samples[name].wall.push(wall);
      samples[name].cpu.push(cpu);
    }
  }
  const base = median(samples['node -e 0 (baseline)'].wall);
  printTable(
    Object.entries(samples).map(([name, s]) => ({
      command: name,
      'wall median ms': Math.round(median(s.wall)),
      'cpu median ms': Math.round(median(s.cpu)),
      'wall / baseline': median(s.wall) / base,
    })),
  );
}
