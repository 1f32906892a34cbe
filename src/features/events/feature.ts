import type { Feature } from '../feature.js';
import { pruneEvents } from './prune-events.job.js';
import { eventRoutes, eventSchemas } from './routes.js';

export const eventsFeature: Feature = { name: 'events', routes: eventRoutes, schemas: eventSchemas, tasks: [pruneEvents] };
