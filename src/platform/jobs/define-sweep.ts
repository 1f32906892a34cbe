import type { Context } from '../context.js';
import { defineTask, type TaskDefinition } from './define-task.js';

/**
 * Scheduled work (architecture, "Scheduled work"): what is due lives in a business table, a sweep
 * reads ctx.clock, claims due rows with FOR UPDATE SKIP LOCKED and handles them idempotently, so
 * any number of workers may run it at once. The cron only wakes the sweep; tests call it directly.
 */
export interface SweepDefinition {
  name: string;
  /** When the queue wakes the sweep (cron, UTC). */
  cron: string;
  /** Handles everything due at ctx.clock.now(); returns how many rows it handled. */
  sweep: (ctx: Context) => Promise<number>;
}

export type Sweep = TaskDefinition<Record<string, never>> & Pick<SweepDefinition, 'sweep'>;

export function defineSweep(definition: SweepDefinition): Sweep {
  const task = defineTask<Record<string, never>>({
    name: definition.name,
    cron: definition.cron,
    async handler(_payload, ctx) {
      await definition.sweep(ctx);
    },
  });
  return { ...task, sweep: definition.sweep };
}

/**
 * Runs `claimBatch` (one statement claiming and handling at most `batchSize` due rows, returning
 * how many) until a batch comes back short: short transactions, locks held briefly, and
 * concurrent sweepers share the rows instead of waiting on each other.
 */
export async function inBatches(batchSize: number, claimBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const handled = await claimBatch(batchSize);
    total += handled;
    if (handled < batchSize) return total;
  }
}

/** The instant `days` before now: the edge of a retention window. */
export function retentionCutoff(ctx: Pick<Context, 'clock'>, days: number): string {
  return new Date(ctx.clock.now().getTime() - days * 86_400_000).toISOString();
}
