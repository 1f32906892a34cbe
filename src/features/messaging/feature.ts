import { lazyPlugin, type Feature } from '../feature.js';

/** The development mailbox page /dev/mail (off in production), and the e-mail and WhatsApp kinds the worker sends. */
export const messagingFeature: Feature = {
  name: 'messaging',
  pages: lazyPlugin(async () => (await import('./dev-mail-page.js')).devMailRoutes),
  outboundKinds: async (ctx) => {
    const [{ emailKind }, { whatsappKind }] = await Promise.all([import('./email-kind.js'), import('./whatsapp-kind.js')]);
    return [{ kind: emailKind(ctx), options: { perTarget: 16 } }, { kind: whatsappKind(ctx) }];
  },
};
