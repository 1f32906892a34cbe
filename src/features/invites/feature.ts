import { lazyPlugin, type Feature } from '../feature.js';
import { expireInvitesSweep } from './expire-invites.job.js';
import { inviteSchemas } from './schemas.js';

export const invitesFeature: Feature = {
  name: 'invites',
  routes: lazyPlugin(async () => (await import('./routes.js')).inviteRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).invitePanelRoutes),
  schemas: inviteSchemas,
  tasks: [expireInvitesSweep],
};
