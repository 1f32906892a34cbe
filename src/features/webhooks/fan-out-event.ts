import { sql, type SQL } from 'drizzle-orm';
import type { EventConsumer } from '../events/index.js';
import { insertDeliveries, wakeDeliveries } from './queue-deliveries.js';

/**
 * The deliveries of a set of events (a relation e(id, company_id, type, occurred_at)): one per
 * enabled subscription of the event's company that wants its type ("*" or the type listed). With
 * `onlySubscriptionId` (a ping) the event goes to that one enabled subscription, whatever types it selected.
 */
export function fanOutRows(events: SQL, onlySubscriptionId?: string): SQL {
  const wanted = onlySubscriptionId
    ? sql`s.id = ${onlySubscriptionId}::uuid`
    : sql`(s.types @> '{*}' OR e.type = ANY (s.types))`;
  return sql`SELECT uuidv7_at(e.occurred_at) AS id, s.company_id, s.id AS subscription_id, e.id AS event_id, e.occurred_at AS due_at
    FROM ${events} JOIN webhook_subscriptions s ON s.company_id = e.company_id AND s.enabled AND ${wanted}`;
}

/** Webhooks as a consumer of events: stored events queue their deliveries in the events' own statement. */
export const webhookFanOut: EventConsumer = {
  name: 'webhook_deliveries',
  consume: (events, addressedTo) => insertDeliveries(fanOutRows(events, addressedTo)),
  after: wakeDeliveries,
};
