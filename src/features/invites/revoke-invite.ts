import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { EmitDeps } from '../events/index.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { INVITE_COLUMNS_NEWEST_SEND, type InviteRow } from './invite-view.js';
import { inviteOf, moveInvites } from './lifecycle/move-invites.js';
import { deleteDraft } from './delete-draft.js';

/**
 * Revokes an invite: the link dies at once, its pending and scheduled messages are cancelled
 * with their reserved units returned, and invite.revoked is emitted, all in one transaction.
 * The respondent's saved draft is deleted with it.
 * Revoking a revoked invite answers it again without a second event; a responded one is 409.
 */
export async function revokeInvite(db: DbOrTx, deps: EmitDeps, input: { companyId: string; inviteId: string }): Promise<InviteRow> {
  const { companyId, inviteId } = input;
  if (!isUuid(inviteId)) throw notFound('Invite');
  return db.transaction(async (tx) => {
    const [revoked] = await moveInvites(tx, deps, { move: 'revoked', targets: inviteOf(companyId, inviteId) });
    if (revoked) {
      await deleteDraft(tx, deps, { companyId, inviteId });
      return revoked;
    }
    // Not moved: unknown, or already final for revoke (revoked or responded, neither of which changes again).
    const { rows } = await tx.execute<InviteRow>(sql`
      SELECT ${INVITE_COLUMNS_NEWEST_SEND} FROM invites i WHERE i.company_id = ${companyId} AND i.id = ${inviteId}`);
    const row = rows[0];
    if (!row) throw notFound('Invite');
    if (row.status === 'responded') throw new ApiError('ALREADY_RESPONDED', 'This invite has already become a response and cannot be revoked.');
    return row;
  });
}
