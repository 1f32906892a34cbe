import type { Feature } from '../feature.js';
import { unsubscribeRoutes } from './unsubscribe-page.js';

/** The one-click unsubscribe page /u/{token}. */
export const suppressionFeature: Feature = { name: 'suppression', pages: unsubscribeRoutes };
