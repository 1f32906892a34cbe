import type { Command } from 'commander';
import type { Config } from '../../platform/config.js';
import { printError } from '../output.js';

interface Tiers {
  api: boolean;
  worker: boolean;
  demo: boolean;
}

type Closer = () => Promise<unknown>;

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Set once a stop signal arrives: connections dropping after that are expected, not errors. */
let stopping = false;

/** Stops in reverse order of start, then exits with `code`; a second request forces the exit. */
function stopper(closers: Closer[]) {
  return async (reason: string, code: number) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${reason}, stopping...`);
    for (const close of [...closers].reverse()) await close().catch((err) => log(`while stopping: ${(err as Error).message}`));
    process.exit(code);
  };
}

type Stop = ReturnType<typeof stopper>;

function closeOnSignals(stop: Stop): void {
  process.on('SIGINT', () => void stop('SIGINT received', 0));
  process.on('SIGTERM', () => void stop('SIGTERM received', 0));
}

async function startTiers(config: Config, tiers: Tiers, closers: Closer[], stop: Stop): Promise<void> {
  // Loaded here, not at registration: other commands and --help must not pay for the server.
  const [{ createContext }, { migrate }, { createLogger, wantsPrettyLogs }] = await Promise.all([
    import('../../platform/context.js'),
    import('../../platform/db/migrate.js'),
    import('../../lib/logger.js'),
  ]);
  const ctx = await createContext(config, {
    poolSize: 20,
    log,
    logger: createLogger(config, undefined, { pretty: wantsPrettyLogs(config) }),
    // Answering with a dead database helps no one: exit non-zero so the supervisor restarts us (and it).
    connect: { onUnexpectedExit: (reason) => void stop(`${reason}`, 1) },
  });
  closers.push(() => ctx.close());
  if (ctx.embedded) log(`embedded Postgres on 127.0.0.1:${ctx.embedded.port} (${ctx.embedded.owned ? 'started' : 'joined'}), data in ${config.dataDir}`);
  await migrate(ctx.pool);

  if (tiers.worker) {
    const { startWorker } = await import('../../platform/jobs/worker.js');
    const worker = await startWorker(ctx, {
      log: (level, message) => !stopping && level !== 'info' && log(`worker ${level}: ${message}`),
    });
    closers.push(() => worker.stop());
  }
  // The server listens only once migrated; /readyz then still answers 503 until the demo and its key exist.
  const { Readiness } = await import('../../platform/health/readiness.js');
  const readiness = new Readiness();
  const demoDone = tiers.demo ? readiness.hold('preparing the demo data') : () => undefined;
  if (tiers.api) {
    const { buildApp } = await import('../../platform/app/build-app.js');
    const app = await buildApp(ctx, { readiness });
    closers.push(() => app.close());
    await app.listen({ port: config.port, host: config.host });
    // Stopped first: /readyz answers 503 so a balancer takes this process out while it still answers.
    if (config.shutdownDrainMs > 0) {
      closers.push(async () => {
        readiness.hold('draining before shutdown');
        log(`draining for ${config.shutdownDrainMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      });
    }
  }
  if (tiers.demo) {
    const { announceDemo } = await import('../../demo/announce-demo.js');
    log((await announceDemo(ctx, { onProgress: log })).banner);
    demoDone();
  }
}

function serveAction(tiers: (opts: Record<string, unknown>) => Tiers) {
  return async (opts: Record<string, unknown>) => {
    const closers: Closer[] = [];
    const stop = stopper(closers);
    closeOnSignals(stop);
    try {
      const { loadConfig } = await import('../../platform/config.js');
      await startTiers(loadConfig(), tiers(opts), closers, stop);
    } catch (err) {
      printError(err, {});
      for (const close of closers.reverse()) await close().catch(() => undefined);
      process.exit(1);
    }
  };
}

export function registerServeCommands(program: Command): void {
  program
    .command('start')
    .description('run the API, respondent pages, worker and sweeps in one process (embedded Postgres unless DATABASE_URL is set)')
    .option('--no-demo', 'do not create the demo company on first start')
    .action(serveAction((opts) => ({ api: true, worker: true, demo: opts.demo !== false })));
  program
    .command('api')
    .description('run only the HTTP tier (run any number against one Postgres; set REDIS_URL to share rate limits)')
    .action(serveAction(() => ({ api: true, worker: false, demo: false })));
  program
    .command('worker')
    .description('run only the background worker (jobs, deliveries, sweeps)')
    .action(serveAction(() => ({ api: false, worker: true, demo: false })));
}
