import { lazyPlugin, type Feature } from '../feature.js';

export const keysFeature: Feature = {
  name: 'keys',
  routes: lazyPlugin(async () => (await import('./routes.js')).keyRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).keyPanelRoutes),
  schemas: async () => (await import('./schemas.js')).keySchemas,
};
