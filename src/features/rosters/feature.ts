import type { Feature } from '../feature.js';
import { rosterRoutes } from './routes.js';
import { rosterSchemas } from './schemas.js';

export const rostersFeature: Feature = { name: 'rosters', routes: rosterRoutes, schemas: rosterSchemas };
