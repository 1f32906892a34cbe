import { Logger, parseCronItems, run, type Runner, type TaskList } from 'graphile-worker';
import type { TaskDefinition, WorkerContext } from './define-task.js';
import { allTasks } from './tasks.js';
import { features } from '../../features/index.js';
import { startOutboundLoop, type OutboundLoop } from '../outbound/index.js';

export interface WorkerHandle {
  stop(): Promise<void>;
}

export interface WorkerOptions {
  concurrency?: number;
  tasks?: TaskDefinition<any>[];
  log?: (level: string, message: string) => void;
  /** Only the outbound kinds of these names (webhook, email, whatsapp); all when absent (a crash test runs one). */
  kinds?: readonly string[];
}

function taskListFor(tasks: TaskDefinition<any>[], ctx: WorkerContext): TaskList {
  return Object.fromEntries(tasks.map((task) => [task.name, (payload: unknown) => task.handler(payload, ctx)]));
}

/**
 * Runs the job queue and one outbound loop per kind the features declare (webhooks, e-mail,
 * WhatsApp) in this process: inside `quorum start`, or alone as `quorum worker`.
 */
export async function startWorker(ctx: WorkerContext, options: WorkerOptions = {}): Promise<WorkerHandle> {
  const tasks = options.tasks ?? (await allTasks());
  const log = options.log;
  const startRunner = (): Promise<Runner> =>
    run({
      pgPool: ctx.pool,
      concurrency: options.concurrency ?? 4,
      noHandleSignals: true,
      pollInterval: 2000,
      taskList: taskListFor(tasks, ctx),
      parsedCronItems: parseCronItems(
        tasks.filter((t) => t.cron).map((t) => ({ task: t.name, match: t.cron!, identifier: t.name })),
      ),
      logger: new Logger(() => (level, message) => {
        if (log && level !== 'debug') log(level, message);
      }),
    });
  let stopping = false;
  let runner = await startRunner();
  // The queue's runner stops for good when a query of its own fails (a cron tick during a database
  // outage): it is started again, with a growing pause, instead of leaving an unhandled rejection.
  const supervise = (current: Runner): void => {
    current.promise.catch(async (err: unknown) => {
      for (let pauseMs = 500; !stopping; pauseMs = Math.min(pauseMs * 2, 30_000)) {
        log?.('error', `job queue stopped (${(err as Error).message}); starting it again in ${pauseMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        if (stopping) return;
        try {
          runner = await startRunner();
          if (stopping) await runner.stop();
          else supervise(runner);
          return;
        } catch (next) {
          err = next;
        }
      }
    });
  };
  supervise(runner);
  const loops: OutboundLoop[] = [];
  // a kind left out by options.kinds was still made (its transport opened): it is closed at stop, as a loop closes its own
  const dropped: Array<{ close?(): Promise<void> }> = [];
  try {
    for (const feature of features) {
      for (const lane of (await feature.outboundKinds?.(ctx, log ?? (() => undefined))) ?? []) {
        if (options.kinds && !options.kinds.includes(lane.kind.name)) dropped.push(lane.kind);
        else loops.push(await startOutboundLoop(ctx, lane.kind, { log, ...lane.options }));
      }
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  async function stopAll(): Promise<void> {
    for (const loop of loops.reverse()) await loop.stop();
    for (const kind of dropped.splice(0)) await kind.close?.();
    stopping = true;
    // a runner that already stopped on its own has nothing left to stop
    await runner.stop().catch((err: unknown) => log?.('warn', `job queue: ${(err as Error).message}`));
  }
  return { stop: stopAll };
}
