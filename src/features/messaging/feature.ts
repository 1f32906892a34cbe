import { lazyPlugin, type Feature } from '../feature.js';

/** The development mailbox page /dev/mail (off in production) and the panel's WhatsApp channel; the e-mail and WhatsApp kinds run in the worker. */
export const messagingFeature: Feature = {
  name: 'messaging',
  pages: lazyPlugin(async () => (await import('./dev-mail-page.js')).devMailRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).channelPanelRoutes),
};
