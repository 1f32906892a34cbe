import { lazyPlugin, type Feature } from '../feature.js';
import { rollupsConsumer } from './apply-response-to-rollups.js';
import { foldRollupsSweep } from './fold-pending-rollups.js';
import { statisticsSchemas } from './schemas.js';

export const statisticsFeature: Feature = {
  name: 'statistics',
  routes: lazyPlugin(async () => (await import('./routes.js')).statisticsRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).statisticsPanelRoutes),
  schemas: statisticsSchemas,
  tasks: [foldRollupsSweep],
  responseConsumers: [rollupsConsumer],
};
