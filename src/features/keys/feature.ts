import { lazyPlugin, type Feature } from '../feature.js';
import { keySchemas } from './schemas.js';

export const keysFeature: Feature = {
  name: 'keys',
  routes: lazyPlugin(async () => (await import('./routes.js')).keyRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).keyPanelRoutes),
  schemas: keySchemas,
};
