import { lazyPlugin, type Feature } from '../feature.js';
import { formSchemas } from './schemas.js';

export const formsFeature: Feature = {
  name: 'forms',
  routes: lazyPlugin(async () => (await import('./routes.js')).formRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).formPanelRoutes),
  schemas: formSchemas,
};
