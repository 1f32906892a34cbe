import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { recordAudit } from '../audit/index.js';
import type { Actor } from './member-input.js';

/** Cancels a pending invitation of the company: its link stops working at once. */
export async function cancelInvitation(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; invitationId: string; actor: Actor }): Promise<void> {
  const { companyId, invitationId, actor } = input;
  if (!isUuid(invitationId)) throw notFound('Invitation');
  await db.transaction(async (tx) => {
    const now = deps.clock.now();
    const { rows } = await tx.execute<{ email: string }>(sql`
      UPDATE member_invitations SET cancelled_at = ${now}
       WHERE company_id = ${companyId} AND id = ${invitationId} AND accepted_at IS NULL AND cancelled_at IS NULL AND expires_at > ${now}
      RETURNING email`);
    if (!rows[0]) throw notFound('Invitation');
    await recordAudit(tx, deps, {
      companyId,
      actor: { userId: actor.userId, email: actor.email },
      action: 'member.invitation_cancelled',
      details: { invitationId, email: rows[0].email },
      ip: actor.ip,
    });
  });
}
