import { lazyPlugin, type Feature } from '../feature.js';

export const sessionsFeature: Feature = { name: 'sessions', panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).sessionPanelRoutes) };
