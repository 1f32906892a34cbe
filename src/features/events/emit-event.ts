import type { Tx } from '../../db/database.js';
import { events } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';

export interface EventEnvelope<D = Record<string, unknown>> {
  id: string;
  type: string;
  version: 1;
  occurredAt: string;
  companyId: string;
  data: D;
}

export interface EmitDeps {
  clock: Clock;
  newId: IdGenerator;
}

/**
 * Records an event inside the caller's transaction (the outbox): the business change and its
 * event commit together or not at all. Delivery to webhooks is derived from this row.
 */
export async function emitEvent<D extends Record<string, unknown>>(
  tx: Tx,
  deps: EmitDeps,
  companyId: string,
  type: string,
  data: D,
): Promise<EventEnvelope<D>> {
  const occurredAt = deps.clock.now();
  const id = deps.newId();
  await tx.insert(events).values({ id, companyId, type, data, occurredAt });
  return { id, type, version: 1, occurredAt: occurredAt.toISOString(), companyId, data };
}
