import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { EmitDeps } from '../events/index.js';
import { inviteOf, moveInvites } from '../invites/index.js';
import type { SuppressionReason } from '../suppression/index.js';
import { suppress } from '../suppression/index.js';

/** delivered and failed move the invite; the others suppress the address for that reason (bounced also fails the invite). */
export type ReceiptOutcome = 'delivered' | 'failed' | SuppressionReason;

/**
 * A receipt names its message by the id the provider answered when it accepted the message
 * (providerMessageId), or by our own message id where the provider returns it (messageId:
 * Postmark's Metadata).
 */
export type Receipt = { channel: 'email' | 'whatsapp'; outcome: ReceiptOutcome } & ({ providerMessageId: string } | { messageId: string });

/** Message ids compared without the angle brackets of a Message-ID header. */
export const bareMessageId = (id: string) => id.trim().replace(/^<|>$/g, '');

/**
 * A provider's receipt for a message we sent: delivered → invite.delivered; bounced → the
 * address suppressed and invite.failed (bounced); complained, unsubscribed, manual → suppressed;
 * failed → invite.failed (send_failed). An unknown message id changes nothing (answers false); a
 * receipt repeated by the provider emits nothing twice.
 */
export async function applyReceipt(db: Db, deps: EmitDeps, input: Receipt): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ companyId: string; inviteId: string; address: string | null }>(sql`
      SELECT m.company_id AS "companyId", m.invite_id AS "inviteId", CASE WHEN m.channel = 'email' THEN i.email ELSE i.phone END AS address
        FROM invite_messages m JOIN invites i ON i.company_id = m.company_id AND i.id = m.invite_id
       WHERE m.channel = ${input.channel} AND ${
         'messageId' in input ? sql`m.id = ${input.messageId}` : sql`m.provider_message_id = ${bareMessageId(input.providerMessageId)}`
       }`);
    const message = rows[0];
    if (!message) return false;
    if (input.outcome !== 'delivered' && input.outcome !== 'failed' && message.address) {
      await suppress(tx, deps, { companyId: message.companyId, addresses: [message.address], reason: input.outcome });
    }
    if (input.outcome !== 'delivered' && input.outcome !== 'failed' && input.outcome !== 'bounced') return true;
    const failReason = input.outcome === 'bounced' ? 'bounced' : 'send_failed';
    await moveInvites(tx, deps, { move: input.outcome === 'delivered' ? 'delivered' : 'receiptFailed', targets: inviteOf(message.companyId, message.inviteId), failReason });
    return true;
  });
}
