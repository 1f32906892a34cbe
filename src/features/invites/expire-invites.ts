import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { inBatches } from '../../platform/jobs/define-sweep.js';
import type { EmitDeps } from '../events/index.js';
import { moveInvites, notFinal } from './lifecycle/move-invites.js';

const BATCH = 500;

/**
 * Stores the expiry of invites whose expiresAt has passed by the clock (effectiveStatus showed
 * it already): status expired, invite.expired, and their queued messages cancelled with the
 * units returned, per batch in one transaction. SKIP LOCKED lets several workers sweep at once.
 * Answers how many invites expired.
 */
export async function expireInvites(db: Db, deps: EmitDeps): Promise<number> {
  const now = deps.clock.now();
  return inBatches(BATCH, (limit) =>
    db.transaction(async (tx) => {
      const due = sql`(SELECT company_id, id AS invite_id FROM invites
           WHERE expires_at <= ${now} AND ${notFinal(sql.raw('invites'))}
           ORDER BY expires_at LIMIT ${limit}
           FOR UPDATE SKIP LOCKED)`;
      return (await moveInvites(tx, deps, { move: 'expired', targets: due })).length;
    }),
  );
}
