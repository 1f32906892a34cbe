import { lazyPlugin, type Feature } from '../feature.js';
import { keySchemas } from './schemas.js';

export const keysFeature: Feature = { name: 'keys', routes: lazyPlugin(async () => (await import('./routes.js')).keyRoutes), schemas: keySchemas };
