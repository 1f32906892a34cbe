import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { EmitDeps } from '../events/emit-event.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { emitInviteEvent } from './emit-invite-event.js';
import { INVITE_COLUMNS_NEWEST_SEND, type InviteRow } from './invite-view.js';
import { cancelPendingMessages } from './cancel-messages.js';
import { deleteDraft } from '../respondent/delete-draft.js';

/**
 * Revokes an invite: the link dies at once, its pending and scheduled messages are cancelled
 * with their reserved units returned, and invite.revoked is emitted, all in one transaction.
 * The respondent's saved draft is deleted with it.
 * Revoking a revoked invite answers it again without a second event; a responded one is 409.
 */
export async function revokeInvite(db: Db, deps: EmitDeps, input: { companyId: string; inviteId: string }): Promise<InviteRow> {
  const { companyId, inviteId } = input;
  if (!isUuid(inviteId)) throw notFound('Invite');
  const now = deps.clock.now();
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<InviteRow & { formName: string; previous: string }>(sql`
      WITH prev AS (SELECT id, status FROM invites WHERE company_id = ${companyId} AND id = ${inviteId} FOR UPDATE)
      UPDATE invites i SET status = CASE WHEN prev.status = 'responded' THEN i.status ELSE 'revoked' END,
                           status_changed_at = CASE WHEN prev.status IN ('responded', 'revoked') THEN i.status_changed_at ELSE ${now} END
        FROM prev, forms f
       WHERE i.id = prev.id AND f.company_id = i.company_id AND f.id = i.form_id
      RETURNING ${INVITE_COLUMNS_NEWEST_SEND}, f.name AS "formName", prev.status AS previous`);
    const row = rows[0];
    if (!row) throw notFound('Invite');
    if (row.previous === 'responded') throw new ApiError('ALREADY_RESPONDED', 'This invite has already become a response and cannot be revoked.');
    if (row.previous === 'revoked') return row;
    await cancelPendingMessages(tx, sql`company_id = ${companyId} AND invite_id = ${inviteId}`, now);
    await deleteDraft(tx, deps, { companyId, inviteId });
    await emitInviteEvent(tx, deps, { type: 'invite.revoked', invite: row, formName: row.formName });
    return row;
  });
}
