import { lazyPlugin, type Feature } from '../feature.js';

/** Provider receipts and bounces (signed by the provider, not an API key). */
export const callbacksFeature: Feature = { name: 'callbacks', pages: lazyPlugin(async () => (await import('./routes.js')).callbackRoutes) };
