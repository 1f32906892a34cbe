import type { Feature } from '../feature.js';
import { responseRoutes } from './routes.js';
import { responseSchemas } from './schemas.js';

export const responsesFeature: Feature = { name: 'responses', routes: responseRoutes, schemas: responseSchemas };
