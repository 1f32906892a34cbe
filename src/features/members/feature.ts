import { lazyPlugin, type Feature } from '../feature.js';

export const membersFeature: Feature = { name: 'members', panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).memberPanelRoutes) };
