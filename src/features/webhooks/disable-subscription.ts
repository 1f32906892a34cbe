import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { webhookSubscriptions, type DisabledReason } from './table.js';
import { updateSubscription } from './update-subscription.js';

/**
 * Stops deliveries to a subscription: no new deliveries are fanned out to it, and its pending
 * ones wait (they resume when it is enabled again). The first reason and time are kept, so an
 * operator disabling an already auto-disabled subscription does not hide why it stopped.
 */
export async function disableSubscription(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; id: string; reason?: DisabledReason }) {
  const { companyId, id, reason = 'operator' } = input;
  const now = deps.clock.now();
  return updateSubscription(db, companyId, id, {
    enabled: false,
    disabledAt: sql`coalesce(${webhookSubscriptions.disabledAt}, ${now.toISOString()}::timestamptz)`,
    disabledReason: sql`coalesce(${webhookSubscriptions.disabledReason}, ${reason})`,
    updatedAt: now,
  });
}
