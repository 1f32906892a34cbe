import { defineSweep } from '../../platform/jobs/define-sweep.js';
import { expireInvites } from './expire-invites.js';

/** Every minute: the cron only wakes the sweep; what is due is decided by expires_at and the clock. */
export const expireInvitesSweep = defineSweep({
  name: 'invites.expire',
  cron: '* * * * *',
  sweep: (ctx) => expireInvites(ctx.db, ctx),
});
