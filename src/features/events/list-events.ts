import { and, desc, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { CursorPage } from '../../lib/pagination.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { events } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../lib/cursor.js';
import { parseInstant } from '../../lib/date-time.js';
import { validationError } from '../../lib/errors.js';
import { isNewestFirstPosition, olderThan } from '../../lib/newest-first.js';
import { eventEnvelope, type EventEnvelope, type EventType } from './catalog.js';
import { EVENT_RETENTION_DAYS } from './prune-events.job.js';

export interface ListEventsInput {
  companyId: string;
  limit: number;
  /** nextCursor of the previous page; absent on the first page. */
  cursor?: string;
  type?: EventType;
  /** ISO 8601 timestamp, inclusive. */
  since?: string;
}

/** since as the instant it names, however it was written (a leap second included). */
function sinceInstant(input: ListEventsInput): Date | undefined {
  if (input.since === undefined) return undefined;
  const since = parseInstant(input.since);
  if (!since) throw validationError([{ path: 'since', code: 'invalid_format', message: 'must be an RFC 3339 date-time' }]);
  return since;
}

/** The filters decide the row set; since is bound as the instant it names. */
function cursorBinding(input: ListEventsInput, since: Date | undefined): CursorBinding {
  return { companyId: input.companyId, scope: { route: 'events', type: input.type, since: since?.toISOString() } };
}

/** Only the last 30 days are offered (older events are being swept), and `since` only narrows that. */
function windowStart(since: Date | undefined, now: Date): Date {
  const retained = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
  return since && since > retained ? since : retained;
}

/**
 * A page of the company's events for reconciliation, newest first (occurredAt desc, id desc),
 * keyset over events_company_time_idx / events_company_type_time_idx; the first page also
 * counts the total in the same statement.
 */
export async function listEvents(db: DbOrTx, deps: { clock: Clock; cursorSecret: string }, input: ListEventsInput): Promise<CursorPage<EventEnvelope>> {
  const since = sinceInstant(input);
  const binding = cursorBinding(input, since);
  const position = input.cursor !== undefined ? decodeCursor(deps.cursorSecret, binding, input.cursor, isNewestFirstPosition) : null;
  const filter = and(
    eq(events.companyId, input.companyId),
    gte(events.occurredAt, windowStart(since, deps.clock.now())),
    input.type ? eq(events.type, input.type) : undefined,
  ) as SQL;
  const rows = await db
    .select({
      id: events.id,
      type: events.type,
      data: events.data,
      occurredAt: events.occurredAt,
      total: position ? sql<null>`null` : sql<number>`(SELECT count(*) FROM ${events} WHERE ${filter})`.mapWith(Number),
    })
    .from(events)
    .where(and(filter, olderThan(events.occurredAt, events.id, position)))
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(input.limit + 1);
  const hasMore = rows.length > input.limit;
  const items = rows.slice(0, input.limit).map((row) => eventEnvelope({ ...row, type: row.type as EventType, companyId: input.companyId, data: row.data as EventEnvelope['data'] }));
  const last = items.at(-1);
  const nextCursor = hasMore && last ? encodeCursor(deps.cursorSecret, binding, { t: last.occurredAt, id: last.id }) : null;
  return position ? { items, hasMore, nextCursor } : { items, hasMore, nextCursor, total: rows[0]?.total ?? 0 };
}
