import type { DbOrTx, Tx } from '../../db/database.js';
import { events } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError } from '../../lib/errors.js';
import { fanOutEvent } from '../webhooks/fan-out-event.js';
import { eventEnvelope, type EventDataByType, type EventEnvelope, type EventType } from './catalog.js';

export type { EventEnvelope } from './catalog.js';

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

/** Writes the event row only (no deliveries); emitEvent and the webhook ping build on it. */
export async function recordEvent<T extends EventType>(
  tx: DbOrTx,
  deps: EmitDeps,
  companyId: string,
  type: T,
  data: EventDataByType[T],
): Promise<EventEnvelope<T>> {
  const occurredAt = deps.clock.now();
  const envelope = eventEnvelope({ id: deps.newId(), type, occurredAt, companyId, data });
  assertDeliverableSize(envelope);
  await tx.insert(events).values({ id: envelope.id, companyId, type, data, occurredAt });
  return envelope;
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
  const envelope = await recordEvent(tx, deps, companyId, type, data);
  await fanOutEvent(tx, envelope);
  return envelope;
}
