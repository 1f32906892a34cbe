import type { DbOrTx } from '../../db/database.js';
import { buildEvent, storeEvent, type EmitDeps } from '../events/index.js';
import { pingData } from '../events/index.js';
import { findEnabledSubscription } from './find-subscription.js';

export const DEFAULT_PING_MESSAGE = 'Test event from Quorum';

/**
 * Sends a ping event to ONE subscription, whatever types it selected, through the same pipeline
 * as every event: stored, signed, retried and logged.
 */
export async function pingSubscription(db: DbOrTx, deps: EmitDeps, input: { companyId: string; subscriptionId: string; message?: string }) {
  const { companyId, subscriptionId, message = DEFAULT_PING_MESSAGE } = input;
  return db.transaction(async (tx) => {
    await findEnabledSubscription(tx, companyId, subscriptionId);
    const event = buildEvent(deps, companyId, 'ping', pingData(message));
    await storeEvent(tx, deps, { event, addressedTo: subscriptionId });
    return { subscriptionId, event };
  });
}
