import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/database.js';
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
 * Stores the events of `rows` (a SELECT of id, company_id, type, data, occurred_at, possibly over
 * `ctes`, the caller's own CTEs of the same statement) and hands them to every consumer (webhooks
 * queue their deliveries: to every subscription that wants each, or only to `addressedTo`), all in
 * ONE statement of the caller's transaction, however many events: each consumer contributes a CTE
 * over the stored rows. Returns how many events were stored.
 */
async function storeRows(tx: DbOrTx, consumers: readonly EventConsumer[], ctes: SQL | undefined, rows: SQL, addressedTo?: string): Promise<number> {
  const parts = consumers.flatMap((consumer) => {
    const body = consumer.consume(sql`stored AS e`, addressedTo);
    return body ? [{ consumer, body }] : [];
  });
  const consumerCtes = parts.map(({ consumer, body }) => sql`, ${sql.identifier(consumer.name)} AS (${body})`);
  const results = parts.map(({ consumer }) => {
    const count = sql`(SELECT count(*)::int FROM ${sql.identifier(consumer.name)})`;
    return sql`, ${consumer.after ? consumer.after(count) : count} AS ${sql.identifier(consumer.name)}`;
  });
  const result = await tx.execute<{ stored: number }>(sql`WITH ${ctes ? sql`${ctes}, ` : sql``}stored AS (
      INSERT INTO events (id, company_id, type, data, occurred_at) ${rows}
      RETURNING id, company_id, type, occurred_at)${sql.join(consumerCtes)}
    SELECT (SELECT count(*)::int FROM stored) AS stored${sql.join(results)}`);
  return result.rows[0].stored;
}

/** Stores events built in JS (buildEvent has checked their size) and hands them to the consumers: see storeRows. */
export async function storeEvents(tx: DbOrTx, deps: { eventConsumers: readonly EventConsumer[] }, input: { events: readonly EventEnvelope[]; addressedTo?: string }): Promise<void> {
  const consumers = deps.eventConsumers;
  const { events, addressedTo } = input;
  if (events.length === 0) return;
  await storeRows(tx, consumers, undefined, sql`SELECT id, "companyId", type, data, "occurredAt"
    FROM jsonb_to_recordset(${JSON.stringify(events)}::jsonb) AS e(id uuid, "companyId" uuid, type text, data jsonb, "occurredAt" timestamptz)`, addressedTo);
}

/** Events built in SQL, in the statement that causes them (a sweep's claimed rows, say). */
export interface EventSource {
  /** CTE definitions (`name AS (...)`, comma-separated) that `events` may read; they run in the same statement. */
  with?: SQL;
  /** A SELECT of (id uuid, company_id uuid, type text, data jsonb, occurred_at timestamptz). */
  events: SQL;
}

/**
 * The bytes an envelope adds around its data and type: ids are 36 characters and occurredAt 24
 * whatever their value, so this is a constant, measured once on an envelope built by eventEnvelope.
 */
const NIL_ID = '00000000-0000-0000-0000-000000000000';
const ENVELOPE_BYTES =
  Buffer.byteLength(JSON.stringify(eventEnvelope({ id: NIL_ID, type: '' as EventType, occurredAt: new Date(0), companyId: NIL_ID, data: null as never }))) - 'null'.length;

/**
 * storeEvents for events built in SQL, with the same size bound as buildEvent: an event over
 * MAX_EVENT_BYTES fails the statement (413 PAYLOAD_TOO_LARGE). The data is measured on jsonb's
 * text, which has a space after every ':' and ',', so it counts a few bytes more than
 * JSON.stringify: it never lets through an event buildEvent would refuse. (Measuring the whole
 * envelope built in SQL cost 0.5 s per 100,000 events; the data's text alone, 0.1 s.)
 */
export async function storeEventsFrom(tx: DbOrTx, deps: { eventConsumers: readonly EventConsumer[] }, input: EventSource): Promise<number> {
  const consumers = deps.eventConsumers;
  const bytes = sql`(${ENVELOPE_BYTES}::int + octet_length(n.type) + octet_length(n.data::text))`;
  const rows = sql`SELECT n.id, n.company_id, n.type, n.data, n.occurred_at FROM (${input.events}) AS n
    WHERE CASE WHEN ${bytes} > ${MAX_EVENT_BYTES} THEN event_too_large(n.type, ${bytes}, ${MAX_EVENT_BYTES}) ELSE true END`;
  try {
    return await storeRows(tx, consumers, input.with, rows);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; detail?: string } }).cause ?? (err as { code?: string; detail?: string });
    if (cause.code !== 'Q0413') throw err;
    const details = JSON.parse(cause.detail!) as { type: string; bytes: number; limit: number };
    throw new ApiError('PAYLOAD_TOO_LARGE', `The ${details.type} event would be ${details.bytes} bytes; events are limited to ${details.limit}.`, details);
  }
}

/** storeEvents for one event (a ping addressed to one subscription, say). */
export function storeEvent(tx: DbOrTx, deps: { eventConsumers: readonly EventConsumer[] }, input: { event: EventEnvelope; addressedTo?: string }): Promise<void> {
  return storeEvents(tx, deps, { events: [input.event], addressedTo: input.addressedTo });
}

/**
 * Records an event inside the caller's transaction (the outbox) together with one delivery per
 * matching webhook subscription: the business change, its event and its deliveries commit
 * together or not at all, and the delivery workers are woken at commit.
 */
export async function emitEvent<T extends EventType>(
  tx: Tx,
  deps: EmitDeps,
  input: { companyId: string; type: T; data: EventDataByType[T] },
): Promise<EventEnvelope<T>> {
  const { companyId, type, data } = input;
  const event = buildEvent(deps, companyId, type, data);
  await storeEvent(tx, deps, { event });
  return event;
}

/**
 * emitEvent for many events at once (a roster import drops hundreds of enrollments): the events
 * and their deliveries in one statement of the caller's transaction, however many there are.
 */
export async function emitEvents<T extends EventType>(tx: Tx, deps: EmitDeps, input: { companyId: string; type: T; data: EventDataByType[T][] }): Promise<number> {
  const { companyId, type, data } = input;
  const events = data.map((item) => buildEvent(deps, companyId, type, item));
  await storeEvents(tx, deps, { events });
  return events.length;
}
