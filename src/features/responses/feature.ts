import { lazyPlugin, type Feature } from '../feature.js';

export const responsesFeature: Feature = {
  name: 'responses',
  routes: lazyPlugin(async () => (await import('./routes.js')).responseRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).responsePanelRoutes),
  schemas: async () => (await import('./schemas.js')).responseSchemas,
};
