import { lazyPlugin, type Feature } from '../feature.js';
import { rosterSchemas } from './schemas.js';

export const rostersFeature: Feature = {
  name: 'rosters',
  routes: lazyPlugin(async () => (await import('./routes.js')).rosterRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).rosterPanelRoutes),
  schemas: rosterSchemas,
};
