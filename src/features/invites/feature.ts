import type { Feature } from '../feature.js';
import { expireInvitesTask } from './expire-invites.job.js';
import { inviteRoutes } from './routes.js';
import { inviteSchemas } from './schemas.js';

export const invitesFeature: Feature = { name: 'invites', routes: inviteRoutes, schemas: inviteSchemas, tasks: [expireInvitesTask] };
