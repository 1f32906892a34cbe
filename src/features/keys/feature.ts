import type { Feature } from '../feature.js';
import { keyRoutes, keySchemas } from './routes.js';

export const keysFeature: Feature = { name: 'keys', routes: keyRoutes, schemas: keySchemas };
