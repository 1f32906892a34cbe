import { lazyPlugin, lazyResponseConsumer, type Feature } from '../feature.js';

/** Alert rules of forms (operator CLI: quorum form goal; the panel's form page) and the crossing decided with each response. */
export const goalsFeature: Feature = {
  name: 'goals',
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).goalPanelRoutes),
  responseConsumers: [lazyResponseConsumer('goals', async () => (await import('./reach-goals.js')).reachGoals)],
};
