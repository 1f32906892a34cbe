import { lazyPlugin, type Feature } from '../feature.js';
import { webhookFanOut } from './fan-out-event.js';

export const webhooksFeature: Feature = {
  name: 'webhooks',
  tasks: async () => [(await import('./prune-deliveries.job.js')).pruneDeliveries],
  eventConsumers: [webhookFanOut],
  backlog: [{ kind: 'webhook', oldestDue: `SELECT min(next_attempt_at) AS due FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1` }],
  outboundKinds: async (ctx, log) => [(await import('./deliver-loop.js')).webhookLane(ctx, { log })],
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).webhookPanelRoutes),
};
