import { lazyPlugin, type Feature } from '../feature.js';
import { pruneEvents } from './prune-events.job.js';
import { eventSchemas } from './schemas.js';

export const eventsFeature: Feature = { name: 'events', routes: lazyPlugin(async () => (await import('./routes.js')).eventRoutes), schemas: eventSchemas, tasks: [pruneEvents] };
