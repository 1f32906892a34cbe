import { lazyPlugin, type Feature } from '../feature.js';
import { webhookFanOut } from './fan-out-event.js';
import { pruneDeliveries } from './prune-deliveries.job.js';

export const webhooksFeature: Feature = {
  name: 'webhooks',
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).webhookPanelRoutes),
  tasks: [pruneDeliveries],
  eventConsumers: [webhookFanOut],
};
