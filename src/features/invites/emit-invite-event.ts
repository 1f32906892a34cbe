import type { Tx } from '../../db/database.js';
import { inviteEventData, type FailReason, type InviteEventType } from '../events/catalog.js';
import { emitEvent, type EmitDeps } from '../events/emit-event.js';
import type { InviteRow } from './invite-view.js';

/**
 * Emits an invite.* event in the caller's transaction, the one that stores the change. The
 * batch is the send's when the invite was sent, else its import's (null when created alone).
 */
export async function emitInviteEvent(
  tx: Tx,
  deps: EmitDeps,
  type: InviteEventType,
  invite: InviteRow,
  formName: string | null,
  failReason?: FailReason,
): Promise<void> {
  const input = {
    formId: invite.formId,
    formName,
    inviteId: invite.id,
    channel: invite.channel,
    batchId: invite.sendBatchId ?? invite.batchId,
    respondent: { name: invite.name, email: invite.email, phone: invite.phone, externalId: invite.externalId },
  };
  const data = type === 'invite.failed' ? inviteEventData('invite.failed', { ...input, failReason: failReason! }) : inviteEventData(type, input);
  await emitEvent(tx, deps, invite.companyId, type, data);
}
