import { lazyPlugin, type Feature } from '../feature.js';

export const invitesFeature: Feature = {
  name: 'invites',
  routes: lazyPlugin(async () => (await import('./routes.js')).inviteRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).invitePanelRoutes),
  schemas: async () => (await import('./schemas.js')).inviteSchemas,
  tasks: async () => [(await import('./expire-invites.job.js')).expireInvitesSweep],
};
