import type { TaskDefinition } from './define-task.js';
import { features } from '../../features/index.js';

/** Every task the worker runs, as the features declare them. */
export const allTasks: TaskDefinition<any>[] = features.flatMap((feature) => feature.tasks ?? []);
