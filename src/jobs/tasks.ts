import type { TaskDefinition } from './define-task.js';
import { pruneEventsTask } from '../features/events/prune-events.job.js';
import { pruneDeliveriesTask } from '../features/webhooks/prune-deliveries.job.js';
import { expireInvitesTask } from '../features/invites/expire-invites.job.js';

/** Every task the worker runs; features add theirs here. */
export const allTasks: TaskDefinition<any>[] = [pruneEventsTask, pruneDeliveriesTask, expireInvitesTask];
