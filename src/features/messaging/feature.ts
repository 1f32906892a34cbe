import type { Feature } from '../feature.js';
import { devMailRoutes } from './dev-mail-page.js';

/** The development mailbox page /dev/mail (off in production); the e-mail and WhatsApp kinds run in the worker. */
export const messagingFeature: Feature = { name: 'messaging', pages: devMailRoutes };
