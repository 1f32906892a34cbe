import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { EventEnvelope } from '../events/catalog.js';
import { queueDeliveries } from './queue-deliveries.js';

/**
 * One delivery per enabled subscription of the event's company that wants its type ("*" or the
 * type listed), in the caller's transaction: the event and its deliveries commit together, so
 * nothing is lost between the business write and delivery. With `onlySubscriptionId` (a ping)
 * the event goes to that one enabled subscription, whatever types it selected.
 */
export async function fanOutEvent(db: DbOrTx, event: EventEnvelope, onlySubscriptionId?: string): Promise<number> {
  const wanted = onlySubscriptionId
    ? sql`s.id = ${onlySubscriptionId}::uuid`
    : sql`(s.types @> '{*}' OR ${event.type}::text = ANY (s.types))`;
  return queueDeliveries(
    db,
    sql`SELECT uuidv7_at(${event.occurredAt}::timestamptz) AS id, s.company_id, s.id AS subscription_id,
          ${event.id}::uuid AS event_id, ${event.occurredAt}::timestamptz AS due_at
        FROM webhook_subscriptions s
        WHERE s.company_id = ${event.companyId}::uuid AND s.enabled AND ${wanted}`,
  );
}
