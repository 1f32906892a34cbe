import type { AppContext } from '../app/context.js';

/** What a task handler gets besides its payload: the same providers as the API. */
export type WorkerContext = Omit<AppContext, 'limiter'>;

export interface TaskDefinition<P = unknown> {
  name: string;
  /** A cron pattern (UTC) when the task is a periodic sweep. */
  cron?: string;
  handler: (payload: P, ctx: WorkerContext) => Promise<void>;
}

export function defineTask<P>(definition: TaskDefinition<P>): TaskDefinition<P> {
  return definition;
}
