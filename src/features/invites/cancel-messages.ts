import { sql, type SQL } from 'drizzle-orm';
import { noDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { settleQuota } from '../companies/index.js';

/**
 * Cancels the pending messages matched by `where` (a condition on invite_messages) and returns
 * their reserved quota units, in two set-wise statements whatever their number. A message a
 * worker holds right now is cancelled too: its record step sees the status and sends nothing more.
 */
export function cancelPendingMessages(tx: DbOrTx, where: SQL, now: Date): Promise<number> {
  return settleQuota(tx, noDeps, { messages: sql`UPDATE invite_messages SET status = 'cancelled', completed_at = ${now}, lease_until = NULL
         WHERE status = 'pending' AND ${where}
        RETURNING company_id, quota_period`, consume: false }
  );
}
