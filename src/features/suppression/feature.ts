import { lazyPlugin, type Feature } from '../feature.js';

/** The one-click unsubscribe page /u/{token}. */
export const suppressionFeature: Feature = { name: 'suppression', pages: lazyPlugin(async () => (await import('./routes.js')).unsubscribeRoutes) };
