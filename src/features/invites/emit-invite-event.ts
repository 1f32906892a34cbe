import type { Tx } from '../../platform/db/database.js';
import { inviteEventData, type FailReason, type InviteEventType } from '../events/index.js';
import { buildEvent, storeEvents, type EmitDeps } from '../events/index.js';
import type { InviteRow } from './invite-view.js';

/** An invite row with its form's name, as the invite.* events carry it. */
export type InviteWithForm = InviteRow & { formName: string | null };

/**
 * Emits invite.* events of many invites (of any companies) in the caller's transaction, the one
 * that stores their change: one statement whatever their number. batchId is the invite's own (its
 * import's, null when created alone); the send's is sendBatchId.
 */
export async function emitInviteEvents(tx: Tx, deps: EmitDeps, input: { type: InviteEventType; invites: readonly InviteWithForm[]; failReason?: FailReason }): Promise<void> {
  const { type, invites, failReason } = input;
  const events = invites.map((invite) => {
    const input = {
      formId: invite.formId,
      formName: invite.formName,
      inviteId: invite.id,
      channel: invite.channel,
      batchId: invite.batchId,
      sendBatchId: invite.sendBatchId,
      respondent: { name: invite.name, email: invite.email, phone: invite.phone, externalId: invite.externalId },
    };
    const data = type === 'invite.failed' ? inviteEventData('invite.failed', { ...input, failReason: failReason! }) : inviteEventData(type, input);
    return buildEvent(deps, invite.companyId, type, data);
  });
  await storeEvents(tx, deps, { events });
}
