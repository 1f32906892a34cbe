import type { Feature } from '../feature.js';
import { callbackRoutes } from './routes.js';

/** Provider receipts and bounces (signed by the provider, not an API key). */
export const callbacksFeature: Feature = { name: 'callbacks', pages: callbackRoutes };
