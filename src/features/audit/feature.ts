import { lazyPlugin, type Feature } from '../feature.js';

export const auditFeature: Feature = { name: 'audit', panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).auditPanelRoutes) };
