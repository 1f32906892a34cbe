import { lazyPlugin, type Feature } from '../feature.js';

export const rostersFeature: Feature = {
  name: 'rosters',
  routes: lazyPlugin(async () => (await import('./routes.js')).rosterRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).rosterPanelRoutes),
  schemas: async () => (await import('./schemas.js')).rosterSchemas,
};
