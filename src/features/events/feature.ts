import { lazyPlugin, type Feature } from '../feature.js';

export const eventsFeature: Feature = {
  name: 'events',
  routes: lazyPlugin(async () => (await import('./routes.js')).eventRoutes),
  schemas: async () => (await import('./schemas.js')).eventSchemas,
  tasks: async () => [(await import('./prune-events.job.js')).pruneEvents],
};
