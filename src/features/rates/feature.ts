import { lazyPlugin, type Feature } from '../feature.js';

export const ratesFeature: Feature = {
  name: 'rates',
  routes: lazyPlugin(async () => (await import('./routes.js')).ratesRoutes),
  schemas: async () => (await import('./schemas.js')).ratesSchemas,
};
