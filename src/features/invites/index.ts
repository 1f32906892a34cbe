/** The invites feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { type InviteWithForm } from './emit-invite-event.js';
export { effectiveStatus, inviteUrl, type InviteRow } from './invite-view.js';
export {
  emitInviteMoves, inviteOf, liveInvite, moveInvites, moveInvitesSql,
} from './lifecycle/move-invites.js';
export { normaliseEmail, normalisePhone } from './normalise-contact.js';
export { quotaPeriod, quotaSettlement, quotaStatus, settleQuota, type QuotaStatus } from './quota.js';
export { type InviteStatus } from './schemas.js';
export { DEMO_INVITE_FORM, seedDemoInvites } from './seed-demo-invites.js';
