import { lazyPlugin, type Feature } from '../feature.js';

export const formsFeature: Feature = {
  name: 'forms',
  routes: lazyPlugin(async () => (await import('./routes.js')).formRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).formPanelRoutes),
  schemas: async () => (await import('./schemas.js')).formSchemas,
};
