import { lazyPlugin, lazyResponseConsumer, type Feature } from '../feature.js';

export const statisticsFeature: Feature = {
  name: 'statistics',
  routes: lazyPlugin(async () => (await import('./routes.js')).statisticsRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).statisticsPanelRoutes),
  schemas: async () => (await import('./schemas.js')).statisticsSchemas,
  tasks: async () => [(await import('./fold-pending-rollups.js')).foldRollupsSweep],
  responseConsumers: [lazyResponseConsumer('statistics', async () => (await import('./apply-response-to-rollups.js')).rollupsConsumer)],
};
