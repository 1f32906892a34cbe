import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { EmitDeps } from '../events/emit-event.js';
import { cancelPendingMessages } from './cancel-messages.js';
import { emitInviteEvent } from './emit-invite-event.js';
import { INVITE_COLUMNS_NEWEST_SEND, type InviteRow } from './invite-view.js';

const BATCH = 500;

/**
 * Stores the expiry of invites whose expiresAt has passed by the clock (effectiveStatus showed
 * it already): status expired, invite.expired, and their queued messages cancelled with the
 * units returned, per batch in one transaction. SKIP LOCKED lets several workers sweep at once.
 * Answers how many invites expired.
 */
export async function expireInvites(db: Db, deps: EmitDeps): Promise<number> {
  const now = deps.clock.now();
  let total = 0;
  for (;;) {
    const expired = await db.transaction(async (tx) => {
      const { rows } = await tx.execute<InviteRow & { formName: string }>(sql`
        WITH due AS (
          SELECT id FROM invites
           WHERE expires_at <= ${now} AND status NOT IN ('responded', 'revoked', 'expired')
           ORDER BY expires_at LIMIT ${BATCH}
           FOR UPDATE SKIP LOCKED
        )
        UPDATE invites i SET status = 'expired', status_changed_at = ${now}
          FROM due, forms f
         WHERE i.id = due.id AND f.company_id = i.company_id AND f.id = i.form_id
        RETURNING ${INVITE_COLUMNS_NEWEST_SEND}, f.name AS "formName"`);
      if (rows.length === 0) return 0;
      await cancelPendingMessages(tx, sql`invite_id = ANY(${`{${rows.map((row) => row.id).join(',')}}`}::uuid[])`, now);
      for (const row of rows) await emitInviteEvent(tx, deps, { type: 'invite.expired', invite: row, formName: row.formName });
      return rows.length;
    });
    total += expired;
    if (expired < BATCH) return total;
  }
}
