import type { TaskDefinition } from './define-task.js';
import { pruneEvents } from '../features/events/prune-events.job.js';
import { pruneDeliveries } from '../features/webhooks/prune-deliveries.job.js';

/** Every task the worker runs; features add theirs here. */
export const allTasks: TaskDefinition<any>[] = [pruneEvents, pruneDeliveries];
