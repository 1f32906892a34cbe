import { lazyPlugin, type Feature } from '../feature.js';

/** The development mailbox page /dev/mail (off in production), the panel's WhatsApp channel, and the e-mail and WhatsApp kinds the worker sends. */
export const messagingFeature: Feature = {
  name: 'messaging',
  pages: lazyPlugin(async () => (await import('./dev-mail-page.js')).devMailRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).channelPanelRoutes),
  outboundKinds: async (ctx) => {
    const [{ emailKind }, { whatsappKind }, { SMTP_CONNECTIONS }] = await Promise.all([import('./email-kind.js'), import('./whatsapp-kind.js'), import('./smtp-mailer.js')]);
    return [{ kind: emailKind(ctx), options: { perTarget: SMTP_CONNECTIONS } }, { kind: whatsappKind(ctx) }];
  },
  // The due index walked in order until the channel's first pending message.
  backlog: (['email', 'whatsapp'] as const).map((channel) => ({
    kind: channel,
    oldestDue: `SELECT min(due_at) AS due FROM invite_messages WHERE status = 'pending' AND channel = '${channel}' AND due_at <= $1`,
  })),
};
