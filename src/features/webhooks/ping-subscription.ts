import type { DbOrTx } from '../../platform/db/database.js';
import { buildEvent, storeEvent, type EmitDeps } from '../events/index.js';
import { pingData } from '../events/index.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { findEnabledSubscription } from './find-subscription.js';

export const DEFAULT_PING_MESSAGE = 'Test event from Quorum';
/** The spec's ping data is `{ message: string }`: a custom text goes there, bounded like a description. */
export const MAX_PING_MESSAGE = 500;

/**
 * Sends a ping event to ONE subscription, whatever types it selected, through the same pipeline
 * as every event: stored, signed, retried and logged.
 */
export async function pingSubscription(db: DbOrTx, deps: EmitDeps, input: { companyId: string; subscriptionId: string; message?: string }) {
  const { companyId, subscriptionId } = input;
  const message = input.message?.trim() || DEFAULT_PING_MESSAGE;
  if (message.length > MAX_PING_MESSAGE) throw validationError([fieldError('message', 'too_long', `must be at most ${MAX_PING_MESSAGE} characters`)]);
  return db.transaction(async (tx) => {
    await findEnabledSubscription(tx, companyId, subscriptionId);
    const event = buildEvent(deps, companyId, 'ping', pingData(message));
    await storeEvent(tx, deps, { event, addressedTo: subscriptionId });
    return { subscriptionId, event };
  });
}
