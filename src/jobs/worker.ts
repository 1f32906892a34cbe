import { Logger, parseCronItems, run, type Runner, type TaskList } from 'graphile-worker';
import type { TaskDefinition, WorkerContext } from './define-task.js';
import { allTasks } from './tasks.js';
import { startDeliveryLoop, type DeliveryLoopOptions } from '../features/webhooks/deliver-loop.js';
import { startOutboundLoop, type OutboundLoopOptions } from '../features/outbound/loop.js';
import { emailKind } from '../features/messaging/email-kind.js';
import { whatsappKind } from '../features/messaging/whatsapp-kind.js';

export interface WorkerHandle {
  stop(): Promise<void>;
}

export interface WorkerOptions {
  concurrency?: number;
  tasks?: TaskDefinition<any>[];
  log?: (level: string, message: string) => void;
  /** Webhook delivery loop settings; false: this worker delivers no webhooks. */
  deliveries?: DeliveryLoopOptions | false;
  /** E-mail loop settings (SMTP_URL or the dev mailbox); false: this worker sends no e-mail. */
  email?: OutboundLoopOptions | false;
  /** WhatsApp loop settings; false: this worker sends no WhatsApp messages. */
  whatsapp?: OutboundLoopOptions | false;
}

function taskListFor(tasks: TaskDefinition<any>[], ctx: WorkerContext): TaskList {
  return Object.fromEntries(tasks.map((task) => [task.name, (payload: unknown) => task.handler(payload, ctx)]));
}

/** Runs the job queue and webhook delivery in this process (inside `quorum start`, or alone as `quorum worker`). */
export async function startWorker(ctx: WorkerContext, options: WorkerOptions = {}): Promise<WorkerHandle> {
  const tasks = options.tasks ?? allTasks;
  const log = options.log;
  const runner: Runner = await run({
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
  const deliveries = options.deliveries === false ? null : await startDeliveryLoop(ctx, { log, ...options.deliveries });
  const email = options.email === false ? null : await startOutboundLoop(ctx, emailKind(ctx), { perTarget: 16, log, ...options.email });
  const whatsapp = options.whatsapp === false ? null : await startOutboundLoop(ctx, whatsappKind(ctx), { log, ...options.whatsapp });
  return {
    async stop() {
      await whatsapp?.stop();
      await email?.stop();
      await deliveries?.stop();
      await runner.stop();
    },
  };
}
