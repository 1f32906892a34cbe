import { defineTask } from '../../jobs/define-task.js';
import { expireInvites } from './expire-invites.js';

/** Every minute: the cron only wakes the sweep; what is due is decided by expires_at and the clock. */
export const expireInvitesTask = defineTask<Record<string, never>>({
  name: 'invites.expire',
  cron: '* * * * *',
  async handler(_payload, ctx) {
    await expireInvites(ctx.db, ctx);
  },
});
