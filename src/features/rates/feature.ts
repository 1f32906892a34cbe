import { lazyPlugin, type Feature } from '../feature.js';
import { ratesSchemas } from './schemas.js';

export const ratesFeature: Feature = {
  name: 'rates',
  routes: lazyPlugin(async () => (await import('./routes.js')).ratesRoutes),
  schemas: ratesSchemas,
};
