import type { Feature } from '../feature.js';
import { statisticsRoutes } from './routes.js';
import { statisticsSchemas } from './schemas.js';

export const statisticsFeature: Feature = { name: 'statistics', routes: statisticsRoutes, schemas: statisticsSchemas };
