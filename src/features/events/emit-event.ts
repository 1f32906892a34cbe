import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError } from '../../lib/errors.js';
import { fanOutRows } from '../webhooks/fan-out-event.js';
import { queueDeliveries } from '../webhooks/queue-deliveries.js';
import { eventEnvelope, type EventDataByType, type EventEnvelope, type EventType } from './catalog.js';

export interface EmitDeps {
  clock: Clock;
  newId: IdGenerator;
}

/** Largest envelope a webhook may carry (serialised JSON, in bytes). */
export const MAX_EVENT_BYTES = 256 * 1024;

/**
 * An event too large to deliver is refused when it is emitted, not discovered at delivery: the
 * caller's transaction fails with 413 PAYLOAD_TOO_LARGE (a submission that big is the client's
 * to shrink), so no event exists that no receiver could ever get.
 */
function assertDeliverableSize(envelope: EventEnvelope): void {
  const bytes = Buffer.byteLength(JSON.stringify(envelope));
  if (bytes > MAX_EVENT_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `The ${envelope.type} event would be ${bytes} bytes; events are limited to ${MAX_EVENT_BYTES}.`, {
      type: envelope.type,
      bytes,
      limit: MAX_EVENT_BYTES,
    });
  }
}

/** A new event of the company, stamped by the clock; refused here when too large to deliver. */
export function buildEvent<T extends EventType>(deps: EmitDeps, companyId: string, type: T, data: EventDataByType[T]): EventEnvelope<T> {
  const envelope = eventEnvelope({ id: deps.newId(), type, occurredAt: deps.clock.now(), companyId, data });
  assertDeliverableSize(envelope);
  return envelope;
}

/**
 * Stores the event and queues its webhook deliveries (to every subscription that wants it, or to
 * `onlySubscriptionId`) in one statement of the caller's transaction.
 */
export async function storeEvent(tx: DbOrTx, event: EventEnvelope, onlySubscriptionId?: string): Promise<void> {
  const insertEvent = sql`INSERT INTO events (id, company_id, type, data, occurred_at)
    VALUES (${event.id}::uuid, ${event.companyId}::uuid, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${event.occurredAt}::timestamptz)`;
  await queueDeliveries(tx, fanOutRows(event, onlySubscriptionId), insertEvent);
}

/**
 * Records an event inside the caller's transaction (the outbox) together with one delivery per
 * matching webhook subscription: the business change, its event and its deliveries commit
 * together or not at all, and the delivery workers are woken at commit.
 */
export async function emitEvent<T extends EventType>(
  tx: Tx,
  deps: EmitDeps,
  companyId: string,
  type: T,
  data: EventDataByType[T],
): Promise<EventEnvelope<T>> {
  const event = buildEvent(deps, companyId, type, data);
  await storeEvent(tx, event);
  return event;
}

/**
 * emitEvent for many events at once (a roster import drops hundreds of enrollments): the events
 * and their deliveries in one statement of the caller's transaction, however many there are.
 */
export async function emitEvents<T extends EventType>(tx: Tx, deps: EmitDeps, companyId: string, type: T, data: EventDataByType[T][]): Promise<number> {
  if (data.length === 0) return 0;
  const events = data.map((item) => buildEvent(deps, companyId, type, item));
  const recordset = sql`jsonb_to_recordset(${JSON.stringify(events)}::jsonb) AS e(id uuid, "companyId" uuid, type text, data jsonb, "occurredAt" timestamptz)`;
  const insertEvents = sql`INSERT INTO events (id, company_id, type, data, occurred_at) SELECT id, "companyId", type, data, "occurredAt" FROM ${recordset}`;
  await queueDeliveries(
    tx,
    sql`SELECT uuidv7_at(e."occurredAt") AS id, s.company_id, s.id AS subscription_id, e.id AS event_id, e."occurredAt" AS due_at
      FROM ${recordset} JOIN webhook_subscriptions s
        ON s.company_id = e."companyId" AND s.enabled AND (s.types @> '{*}' OR e.type = ANY (s.types))`,
    insertEvents,
  );
  return events.length;
}
