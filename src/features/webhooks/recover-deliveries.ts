import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import { findEnabledSubscription } from './find-subscription.js';
import { queueDeliveries } from './queue-deliveries.js';

export interface RecoverInput {
  companyId: string;
  /** Inclusive; events are kept 30 days, so earlier times find nothing older. */
  since: Date;
  /** One subscription; otherwise every enabled subscription of the company. */
  subscriptionId?: string;
}

/**
 * Re-delivers every event since a time to the subscriptions that select its type (as they are
 * now), as new deliveries due now; set-wise, one statement. Pings are left out: each was a test
 * addressed to one subscription.
 */
export async function recoverDeliveries(db: DbOrTx, deps: { clock: Clock }, input: RecoverInput) {
  const now = deps.clock.now();
  if (Number.isNaN(input.since.getTime()) || input.since > now) {
    throw validationError([{ path: 'since', code: 'invalid_value', message: 'must be a valid time, not in the future' }]);
  }
  if (input.subscriptionId) await findEnabledSubscription(db, input.companyId, input.subscriptionId);
  const oneSubscription = input.subscriptionId ? sql`AND s.id = ${input.subscriptionId}::uuid` : sql``;
  const at = now.toISOString();
  const queued = await queueDeliveries(
    db,
    sql`SELECT uuidv7_at(${at}::timestamptz) AS id, e.company_id, s.id AS subscription_id, e.id AS event_id, ${at}::timestamptz AS due_at
        FROM webhook_subscriptions s
        JOIN events e ON e.company_id = s.company_id
        WHERE s.company_id = ${input.companyId}::uuid AND s.enabled ${oneSubscription}
          AND e.occurred_at >= ${input.since.toISOString()}::timestamptz AND e.type <> 'ping'
          AND (s.types @> '{*}' OR e.type = ANY (s.types))`,
  );
  return { queued, since: input.since.toISOString(), subscriptionId: input.subscriptionId ?? null };
}
