import type { TaskDefinition } from './define-task.js';
import { features } from '../../features/index.js';

/** Every task the worker runs, as the features declare them (each feature loads its own when asked). */
export async function allTasks(): Promise<TaskDefinition<any>[]> {
  return (await Promise.all(features.map((feature) => feature.tasks?.() ?? []))).flat();
}
