import { and, asc, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { events } from '../../platform/db/schema.js';
import { isUuid } from '../../lib/ids.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { webhookAttempts, webhookDeliveries, type DeliveryStatus } from './table.js';
import { DELIVERY_STATUSES } from './vocabulary.js';

export interface DeliveryFilter {
  /** null: every company (operator view). */
  companyId: string | null;
  subscriptionId?: string;
  eventId?: string;
  status?: string;
  limit?: number;
  /** Only deliveries older than this one (pageDeliveries' keyset). */
  before?: string;
}

const MAX_LIMIT = 1000;

function checkFilter(filter: DeliveryFilter): FieldError[] {
  const fields: FieldError[] = [];
  for (const path of ['subscriptionId', 'eventId'] as const) {
    const value = filter[path];
    if (value !== undefined && !isUuid(value)) fields.push({ path, code: 'invalid_format', message: 'must be a UUID' });
  }
  if (filter.status !== undefined && !DELIVERY_STATUSES.includes(filter.status as DeliveryStatus)) {
    fields.push({ path: 'status', code: 'invalid_value', message: `must be one of ${DELIVERY_STATUSES.join(', ')}` });
  }
  const limit = filter.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    fields.push({ path: 'limit', code: !Number.isInteger(limit) ? 'invalid_type' : limit < 1 ? 'too_small' : 'too_large', message: `must be an integer from 1 to ${MAX_LIMIT}` });
  }
  return fields;
}

/** The delivery log, newest first (at most `limit`, default 50, older than `before`): each delivery with its event type and every attempt. */
export async function listDeliveries(db: DbOrTx, _deps: NoDeps, input: DeliveryFilter) {
  const fields = checkFilter(input);
  if (fields.length) throw validationError(fields);
  const conditions: (SQL | undefined)[] = [
    input.companyId ? eq(webhookDeliveries.companyId, input.companyId) : undefined,
    input.subscriptionId ? eq(webhookDeliveries.subscriptionId, input.subscriptionId) : undefined,
    input.eventId ? eq(webhookDeliveries.eventId, input.eventId) : undefined,
    input.status ? eq(webhookDeliveries.status, input.status as DeliveryStatus) : undefined,
    input.before ? lt(webhookDeliveries.id, input.before) : undefined,
  ];
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, and(eq(events.companyId, webhookDeliveries.companyId), eq(events.id, webhookDeliveries.eventId)))
    .where(and(...conditions))
    // Ids are UUIDv7 stamped at creation: id order is creation order, served by an index.
    .orderBy(desc(webhookDeliveries.id))
    .limit(input.limit ?? 50);
  const log = await attemptsOf(db, rows.map((row) => row.delivery));
  return rows.map(({ delivery, eventType }) => ({
    id: delivery.id,
    companyId: delivery.companyId,
    subscriptionId: delivery.subscriptionId,
    eventId: delivery.eventId,
    eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    leaseUntil: delivery.leaseUntil?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    completedAt: delivery.completedAt?.toISOString() ?? null,
    log: log.get(delivery.id) ?? [],
  }));
}

/** The attempts' key leads with company_id (migration 0990), so the companies go in with the ids. */
async function attemptsOf(db: DbOrTx, deliveries: { id: string; companyId: string }[]) {
  const byDelivery = new Map<string, ReturnType<typeof publicAttempt>[]>();
  if (deliveries.length === 0) return byDelivery;
  const companyIds = [...new Set(deliveries.map((delivery) => delivery.companyId))];
  const rows = await db
    .select()
    .from(webhookAttempts)
    .where(and(inArray(webhookAttempts.companyId, companyIds), inArray(webhookAttempts.deliveryId, deliveries.map((delivery) => delivery.id))))
    .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.attempt));
  for (const row of rows) {
    const list = byDelivery.get(row.deliveryId) ?? [];
    list.push(publicAttempt(row));
    byDelivery.set(row.deliveryId, list);
  }
  return byDelivery;
}

function publicAttempt(row: typeof webhookAttempts.$inferSelect) {
  return {
    attempt: row.attempt,
    startedAt: row.startedAt.toISOString(),
    durationMs: row.durationMs,
    statusCode: row.statusCode,
    error: row.error,
    responseBody: row.responseBody,
  };
}
