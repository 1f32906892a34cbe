import { sql } from 'drizzle-orm';
import type { WorkerContext } from '../../platform/jobs/define-task.js';
import type { ClaimRequest, OutboundItem } from '../../platform/outbound/index.js';
import type { InviteStatus } from '../invites/index.js';
import type { FormLanguage } from '../forms/index.js';
import { emailTemplate, reminderTemplate, type EmailTemplate, type MessagePurpose, type WhatsappChannel, type WhatsappProvider, type WhatsappSettings } from '../message-channels/index.js';

export type MessageChannel = 'email' | 'whatsapp';

export interface ClaimedMessage extends OutboundItem {
  companyId: string;
  inviteId: string;
  channel: MessageChannel;
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
  /** The sending company's name and zone (its settings' timeZone), which dates in the message are shown in. */
  companyName: string;
  timeZone: string;
  /** The message's language: the form's, else the company's locale. */
  language: FormLanguage;
  /** The invitation, or a reminder: which of the form's templates renders it. */
  purpose: MessagePurpose;
  /** E-mail: the form's subject and body of its purpose (defaults filled in); null for WhatsApp. */
  emailTemplate: EmailTemplate | null;
  /** WhatsApp: the company's channel as it is now (null when removed since the send); null for e-mail. */
  whatsapp: WhatsappChannel | null;
  mailFrom: string | null;
  /** The company's colour (#RRGGBB, null: none) and logo file (null: none), shown in an e-mail. */
  brandColor: string | null;
  logo: string | null;
  suppressed: boolean;
}

interface ClaimedRow extends Omit<ClaimedMessage, 'emailTemplate' | 'whatsapp' | 'expiresAt'> {
  expiresAt: string | Date | null;
  formEmail: unknown;
  provider: WhatsappProvider | null;
  settings: WhatsappSettings | null;
  credentialsSealed: Buffer | null;
}

/**
 * Leases due messages of one channel in one statement (FOR UPDATE SKIP LOCKED, so workers never
 * claim the same row): attempts + 1 is this attempt's number and its fencing token, and due_at
 * moves to the lease end, so a crashed worker's message simply becomes due again. The invite and
 * suppression state come along (checked when the message's turn comes), and what the channel
 * needs to send: the form's e-mail template only (not its whole definition), or the company's
 * WhatsApp channel. The commit waits for its WAL flush: a claim lost to a Postgres crash would
 * be claimed again under the same attempt number while this worker still sends it.
 */
export async function claimMessages(ctx: WorkerContext, channel: MessageChannel, request: ClaimRequest): Promise<ClaimedMessage[]> {
  const leaseEnd = new Date(request.now.getTime() + request.leaseMs);
  const email = channel === 'email';
  const { rows } = await ctx.db.execute<ClaimedRow & Record<string, unknown>>(sql`
    WITH c AS (
      SELECT id FROM invite_messages
       WHERE status = 'pending' AND channel = ${channel} AND due_at <= ${request.now}
       ORDER BY due_at LIMIT ${request.limit}
       FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE invite_messages m SET attempts = m.attempts + 1, lease_until = ${leaseEnd}, due_at = ${leaseEnd}
        FROM c WHERE m.id = c.id
      RETURNING m.id, m.company_id, m.invite_id, m.channel, m.template, m.attempts, m.purpose
    )
    SELECT m.id, m.attempts AS attempt, m.company_id AS "companyId", m.invite_id AS "inviteId", m.channel, m.template, m.purpose,
           i.token, i.status AS "inviteStatus", i.email, i.phone, i.name, i.external_id AS "externalId", i.dims,
           i.expires_at AS "expiresAt", f.name AS "formName", co.settings->>'mailFrom' AS "mailFrom",
           co.settings->>'brandColor' AS "brandColor", co.settings->>'logo' AS logo,
           co.name AS "companyName", coalesce(co.settings->>'timeZone', 'UTC') AS "timeZone",
           ${email ? sql`f.content->(CASE m.purpose WHEN 'reminder' THEN 'reminder' ELSE 'email' END)` : sql`NULL::jsonb`} AS "formEmail",
           coalesce(f.language, co.settings->>'locale', 'en') AS language,
           mc.provider, mc.settings, mc.credentials_sealed AS "credentialsSealed",
           EXISTS (SELECT 1 FROM suppressions s WHERE s.company_id = m.company_id
                    AND s.address = ${email ? sql`i.email` : sql`i.phone`}) AS suppressed,
           ${email ? sql`'smtp'` : sql`m.company_id::text`} AS target
      FROM claimed m
      JOIN invites i ON i.company_id = m.company_id AND i.id = m.invite_id
      JOIN forms f ON f.company_id = i.company_id AND f.id = i.form_id
      JOIN companies co ON co.id = m.company_id
      LEFT JOIN messaging_channels mc ON ${email ? sql`false` : sql`mc.company_id = m.company_id AND mc.channel = 'whatsapp'`}`);
  return rows.map(({ formEmail, provider, settings, credentialsSealed, expiresAt, ...row }) => ({
    ...row,
    expiresAt: expiresAt === null ? null : new Date(expiresAt),
    emailTemplate: !email ? null : row.purpose === 'reminder' ? reminderTemplate(formEmail, row.language) : emailTemplate(formEmail, row.language),
    whatsapp: provider && settings && credentialsSealed !== null ? { provider, settings, credentialsSealed } : null,
  }));
}
