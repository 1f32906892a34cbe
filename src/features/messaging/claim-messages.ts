import { sql } from 'drizzle-orm';
import type { WorkerContext } from '../../jobs/define-task.js';
import type { ClaimRequest, OutboundItem } from '../outbound/kind.js';
import type { InviteStatus } from '../invites/schemas.js';

export interface ClaimedMessage extends OutboundItem {
  companyId: string;
  inviteId: string;
  channel: 'email' | 'whatsapp';
  template: { name: string; language: string; variables?: Record<string, string> } | null;
  token: string;
  inviteStatus: InviteStatus;
  email: string | null;
  phone: string | null;
  name: string | null;
  externalId: string | null;
  dims: Record<string, string>;
  expiresAt: Date | null;
  formName: string;
  formContent: unknown;
  mailFrom: string | null;
  suppressed: boolean;
}

/**
 * Leases due messages of one channel in one statement (FOR UPDATE SKIP LOCKED, so workers never
 * claim the same row): attempts + 1 is this attempt's number and its fencing token, and due_at
 * moves to the lease end, so a crashed worker's message simply becomes due again. The invite,
 * form and suppression state come along: they are checked when the message's turn comes.
 */
export async function claimMessages(ctx: WorkerContext, channel: 'email' | 'whatsapp', request: ClaimRequest): Promise<ClaimedMessage[]> {
  const leaseEnd = new Date(request.now.getTime() + request.leaseMs);
  const { rows } = await ctx.db.execute<ClaimedMessage & Record<string, unknown>>(sql`
    WITH c AS (
      SELECT id FROM invite_messages
       WHERE status = 'pending' AND channel = ${channel} AND due_at <= ${request.now}
       ORDER BY due_at LIMIT ${request.limit}
       FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE invite_messages m SET attempts = m.attempts + 1, lease_until = ${leaseEnd}, due_at = ${leaseEnd}
        FROM c WHERE m.id = c.id
      RETURNING m.id, m.company_id, m.invite_id, m.channel, m.template, m.attempts
    )
    SELECT m.id, m.attempts AS attempt, m.company_id AS "companyId", m.invite_id AS "inviteId", m.channel, m.template,
           i.token, i.status AS "inviteStatus", i.email, i.phone, i.name, i.external_id AS "externalId", i.dims,
           i.expires_at AS "expiresAt", f.name AS "formName", f.content AS "formContent", co.settings->>'mailFrom' AS "mailFrom",
           EXISTS (SELECT 1 FROM suppressions s WHERE s.company_id = m.company_id
                    AND s.address = CASE WHEN m.channel = 'email' THEN i.email ELSE i.phone END) AS suppressed,
           ${channel === 'email' ? sql`'smtp'` : sql`m.company_id::text`} AS target
      FROM claimed m
      JOIN invites i ON i.company_id = m.company_id AND i.id = m.invite_id
      JOIN forms f ON f.company_id = i.company_id AND f.id = i.form_id
      JOIN companies co ON co.id = m.company_id`);
  return rows.map((row) => ({ ...row, expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt) }));
}
