import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError } from '../../lib/errors.js';
import { eventEnvelope, type EventDataByType, type EventEnvelope, type EventType } from './catalog.js';
import type { EventConsumer } from './event-consumer.js';

export interface EmitDeps {
  clock: Clock;
  newId: IdGenerator;
  /** Who acts on stored events (the context has every feature's, from the feature registry). */
  eventConsumers: readonly EventConsumer[];
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
 * Stores the events and hands them to every consumer (webhooks queue their deliveries: to every
 * subscription that wants each, or only to `addressedTo`), all in ONE statement of the caller's
 * transaction, however many events: each consumer contributes a CTE beside the events' INSERT.
 */
export async function storeEvents(tx: DbOrTx, consumers: readonly EventConsumer[], events: readonly EventEnvelope[], addressedTo?: string): Promise<void> {
  if (events.length === 0) return;
  const relation = sql`jsonb_to_recordset(${JSON.stringify(events)}::jsonb) AS e(id uuid, "companyId" uuid, type text, data jsonb, "occurredAt" timestamptz)`;
  const stored = sql`(SELECT id, "companyId" AS company_id, type, "occurredAt" AS occurred_at FROM ${relation}) AS e`;
  const parts = consumers.flatMap((consumer) => {
    const body = consumer.consume(stored, addressedTo);
    return body ? [{ consumer, body }] : [];
  });
  const ctes = parts.map(({ consumer, body }) => sql`, ${sql.identifier(consumer.name)} AS (${body})`);
  const results = parts.map(({ consumer }) => {
    const count = sql`(SELECT count(*)::int FROM ${sql.identifier(consumer.name)})`;
    return sql`, ${consumer.after ? consumer.after(count) : count} AS ${sql.identifier(consumer.name)}`;
  });
  await tx.execute(sql`WITH stored AS (
      INSERT INTO events (id, company_id, type, data, occurred_at)
      SELECT id, "companyId", type, data, "occurredAt" FROM ${relation}
      RETURNING 1)${sql.join(ctes)}
    SELECT (SELECT count(*)::int FROM stored) AS stored${sql.join(results)}`);
}

/** storeEvents for one event (a ping addressed to one subscription, say). */
export function storeEvent(tx: DbOrTx, consumers: readonly EventConsumer[], event: EventEnvelope, addressedTo?: string): Promise<void> {
  return storeEvents(tx, consumers, [event], addressedTo);
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
  await storeEvent(tx, deps.eventConsumers, event);
  return event;
}

/**
 * emitEvent for many events at once (a roster import drops hundreds of enrollments): the events
 * and their deliveries in one statement of the caller's transaction, however many there are.
 */
export async function emitEvents<T extends EventType>(tx: Tx, deps: EmitDeps, companyId: string, type: T, data: EventDataByType[T][]): Promise<number> {
  const events = data.map((item) => buildEvent(deps, companyId, type, item));
  await storeEvents(tx, deps.eventConsumers, events);
  return events.length;
}
