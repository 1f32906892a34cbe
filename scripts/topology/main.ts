/**
 * `npm run topology -- start|stop|status`: the scaled-out deployment on one machine, without containers
 * (docs/scaling.md): a primary PostgreSQL and a streaming replica, Redis, HAProxy in front of N API
 * processes, and M workers. State and logs live in --dir (default .quorum/topology).
 */
import { Command, InvalidArgumentError } from 'commander';
import { readState } from './state.js';
import { running } from './processes.js';
import { restartProcess, startTopology, stopTopology, switchReplica } from './topology.js';

const log = (line: string) => process.stderr.write(`[topology] ${line}\n`);

function count(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new InvalidArgumentError('a whole number from 1 to 16');
  return n;
}

const program = new Command('topology').description('a primary, a streaming replica, Redis, HAProxy, N API processes and M workers on this machine');
program.option('--dir <dir>', 'where state, logs and (when reachable) the clusters live', '.quorum/topology');
program
  .command('start')
  .description('start everything; prints the balancer address and the database URLs as JSON')
  .option('--api <n>', 'API processes behind HAProxy', count, 2)
  .option('--workers <m>', 'worker processes', count, 1)
  .option('--source', 'run quorum from src/ through tsx instead of dist/')
  .action(async (opts: { api: number; workers: number; source?: boolean }) => {
    const state = await startTopology({ dir: program.opts<{ dir: string }>().dir, apis: opts.api, workers: opts.workers, source: opts.source ?? false, log });
    process.stdout.write(`${JSON.stringify(state, null, 2)}\n`);
  });
program
  .command('stop')
  .description('stop everything start started (by pid), replica and primary last')
  .action(async () => {
    const state = await stopTopology(program.opts<{ dir: string }>().dir, log);
    log(state ? 'stopped' : 'nothing to stop');
  });
program
  .command('replica')
  .argument('<action>', 'stop or start')
  .description('stop or start the replica alone (reads fall back to the primary meanwhile)')
  .action(async (action: string) => {
    if (action !== 'stop' && action !== 'start') throw new InvalidArgumentError('stop or start');
    await switchReplica(program.opts<{ dir: string }>().dir, action === 'start');
    log(`replica ${action === 'start' ? 'started' : 'stopped'}`);
  });
program
  .command('restart')
  .argument('<name>', 'a quorum process that is gone: api1, worker2, ...')
  .description('start again a killed API process (same port) or worker, with the settings of start')
  .action(async (name: string) => {
    const pid = await restartProcess(program.opts<{ dir: string }>().dir, name);
    log(`${name} started again (pid ${pid})`);
  });
program
  .command('status')
  .description('each process of the running topology and whether it runs')
  .action(async () => {
    const state = await readState(program.opts<{ dir: string }>().dir);
    if (!state) {
      log('not started');
      return;
    }
    for (const p of state.processes) process.stdout.write(`${p.name}\t${p.pid}\t${running(p.pid) ? 'running' : 'gone'}\n`);
    for (const c of state.clusters) process.stdout.write(`${c.name}\t:${c.port}\t${c.pgData}\n`);
  });

program.parseAsync().catch((err: unknown) => {
  log((err as Error).message);
  process.exit(1);
});
