import { lazyPlugin, type Feature } from '../feature.js';
import { responseSchemas } from './schemas.js';

export const responsesFeature: Feature = {
  name: 'responses',
  routes: lazyPlugin(async () => (await import('./routes.js')).responseRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).responsePanelRoutes),
  schemas: responseSchemas,
};
