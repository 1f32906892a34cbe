import { sql } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { FailReason, InviteEventType } from './catalog.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

export type InviteEventItem = {
  type: InviteEventType;
  occurredAt: string;
  channel: 'email' | 'whatsapp' | null;
  failReason: FailReason | null;
};

/** One invite's stored events (those of the last 30 days: older ones are swept), oldest first, over events_invite_idx. */
export async function listInviteEvents(db: DbOrTx, _deps: NoDeps, input: { companyId: string; inviteId: string }): Promise<InviteEventItem[]> {
  const { rows } = await db.execute<InviteEventItem>(sql`
    SELECT type, ${isoTimestamp(sql`occurred_at`)} AS "occurredAt",
           data->>'channel' AS channel, data->>'failReason' AS "failReason"
      FROM events
     WHERE company_id = ${input.companyId} AND type LIKE 'invite.%' AND data->>'inviteId' = ${input.inviteId}
     ORDER BY occurred_at, id`);
  return rows;
}
