import { sql, type SQL } from 'drizzle-orm';
import type { EventEnvelope } from '../events/catalog.js';
import type { EventConsumer } from '../events/event-consumer.js';
import { insertDeliveries, wakeDeliveries } from './queue-deliveries.js';

/**
 * The deliveries of an event, for queueDeliveries: one per enabled subscription of the event's
 * company that wants its type ("*" or the type listed). With `onlySubscriptionId` (a ping) the
 * event goes to that one enabled subscription, whatever types it selected.
 */
export function fanOutRows(event: EventEnvelope, onlySubscriptionId?: string): SQL {
  const wanted = onlySubscriptionId
    ? sql`s.id = ${onlySubscriptionId}::uuid`
    : sql`(s.types @> '{*}' OR ${event.type}::text = ANY (s.types))`;
  return sql`SELECT uuidv7_at(${event.occurredAt}::timestamptz) AS id, s.company_id, s.id AS subscription_id,
      ${event.id}::uuid AS event_id, ${event.occurredAt}::timestamptz AS due_at
    FROM webhook_subscriptions s
    WHERE s.company_id = ${event.companyId}::uuid AND s.enabled AND ${wanted}`;
}

/** Webhooks as a consumer of events: each stored event queues its deliveries in the event's own statement. */
export const webhookFanOut: EventConsumer = {
  name: 'webhook_deliveries',
  consume: (event, addressedTo) => insertDeliveries(fanOutRows(event, addressedTo)),
  after: wakeDeliveries,
};
