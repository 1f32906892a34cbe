import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { updateSubscription } from './update-subscription.js';

/**
 * Resumes deliveries, pending ones included. The failure streak starts over: otherwise the first
 * failure after re-enabling would count days from before and disable it again at once.
 */
export async function enableSubscription(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; id: string }) {
  const { companyId, id } = input;
  return updateSubscription(db, companyId, id, {
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    updatedAt: deps.clock.now(),
  });
}
