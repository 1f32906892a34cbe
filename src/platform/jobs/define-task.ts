import type { Context } from '../context.js';

/** What a task handler gets besides its payload: the one context, as the API has it. */
export type WorkerContext = Context;

export interface TaskDefinition<P = unknown> {
  name: string;
  /** A cron pattern (UTC) when the task is a periodic sweep. */
  cron?: string;
  handler: (payload: P, ctx: WorkerContext) => Promise<void>;
}

export function defineTask<P>(definition: TaskDefinition<P>): TaskDefinition<P> {
  return definition;
}
