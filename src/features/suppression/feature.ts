import { lazyPlugin, type Feature } from '../feature.js';

/** The one-click unsubscribe page /u/{token}, and the suppression list in the panel. */
export const suppressionFeature: Feature = {
  name: 'suppression',
  pages: lazyPlugin(async () => (await import('./routes.js')).unsubscribeRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).suppressionPanelRoutes),
};
