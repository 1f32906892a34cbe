/** The invites feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { deleteDraft } from './delete-draft.js';
export { type InviteWithForm } from './emit-invite-event.js';
export { effectiveStatus, inviteUrl, type InviteRow } from './invite-view.js';
export {
  emitInviteMoves, inviteOf, liveInvite, moveInvites, moveInvitesSql,
} from './lifecycle/move-invites.js';
export { type InviteStatus } from './schemas.js';
export { DEMO_INVITE_FORM, seedDemoInvites } from './seed-demo-invites.js';
export { sendInvites, type SendResultData } from './send-invites.js';
