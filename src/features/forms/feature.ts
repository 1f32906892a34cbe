import type { Feature } from '../feature.js';
import { formRoutes } from './routes.js';
import { formSchemas } from './schemas.js';

export const formsFeature: Feature = { name: 'forms', routes: formRoutes, schemas: formSchemas };
