import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { invitationView, type Invitation, type InvitationRow } from './invitation-view.js';

export const SELECT_INVITATIONS = sql`
  SELECT i.id, i.company_id, i.email, i.permissions, i.owner, i.invited_by, u.email AS inviter_email, i.created_at, i.expires_at
    FROM member_invitations i LEFT JOIN users u ON u.id = i.invited_by`;

/** Invitations still waiting for their colleague (not accepted, cancelled or expired), newest first. */
export async function listInvitations(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string }): Promise<Invitation[]> {
  const { rows } = await db.execute<InvitationRow>(sql`${SELECT_INVITATIONS}
    WHERE i.company_id = ${input.companyId} AND i.accepted_at IS NULL AND i.cancelled_at IS NULL AND i.expires_at > ${deps.clock.now()}
    ORDER BY i.created_at DESC, i.id DESC`);
  return rows.map(invitationView);
}
