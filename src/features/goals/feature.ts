import { lazyPlugin, type Feature } from '../feature.js';
import { reachGoals } from './reach-goals.js';

/** Alert rules of forms (operator CLI: quorum form goal; the panel's form page) and the crossing decided with each response. */
export const goalsFeature: Feature = {
  name: 'goals',
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).goalPanelRoutes),
  responseConsumers: [reachGoals],
};
