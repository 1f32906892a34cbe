import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { auditRecords } from '../../platform/db/schema.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../lib/cursor.js';
import { parseInstant } from '../../lib/date-time.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { isUuid } from '../../lib/ids.js';
import { isNewestFirstPosition, olderThan } from '../../lib/newest-first.js';
import type { CursorPage } from '../../lib/pagination.js';

export interface ListAuditInput {
  companyId: string;
  limit: number;
  cursor?: string;
  /** An exact action (`member.removed`) or a family ending in a dot (`member.`). */
  action?: string;
  /** The acting user's id. */
  actor?: string;
  /** RFC 3339 instants: from inclusive, to exclusive. */
  from?: string;
  to?: string;
}

export interface AuditEntry {
  id: string;
  action: string;
  actor: { userId: string | null; email: string | null };
  details: Record<string, unknown>;
  ip: string | null;
  createdAt: string;
}

function instant(path: 'from' | 'to', value: string | undefined, errors: FieldError[]): Date | undefined {
  if (value === undefined) return undefined;
  const at = parseInstant(value);
  if (!at) errors.push(fieldError(path, 'invalid_format', 'must be an RFC 3339 date-time'));
  return at ?? undefined;
}

/** A LIKE pattern matching the family literally (no wildcard a filter could smuggle in). */
const familyPattern = (family: string) => `${family.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of the company's audit records, newest first (created_at desc, id desc), keyset over
 * audit_records_company_idx; the first page counts the total in the same statement. The cursor is
 * bound to the company and the filters.
 */
export async function listAudit(db: DbOrTx, deps: { cursorSecret: string }, input: ListAuditInput): Promise<CursorPage<AuditEntry>> {
  const errors: FieldError[] = [];
  const from = instant('from', input.from, errors);
  const to = instant('to', input.to, errors);
  if (input.actor !== undefined && !isUuid(input.actor)) errors.push(fieldError('actor', 'invalid_format', "must be a member's user id"));
  if (from && to && from >= to) errors.push(fieldError('to', 'invalid_value', 'must be after from'));
  if (errors.length) throw validationError(errors);
  const binding: CursorBinding = { companyId: input.companyId, scope: { route: 'audit', action: input.action, actor: input.actor, from: from?.toISOString(), to: to?.toISOString() } };
  const position = input.cursor !== undefined ? decodeCursor(deps.cursorSecret, binding, input.cursor, isNewestFirstPosition) : null;
  const filter = and(
    eq(auditRecords.companyId, input.companyId),
    input.action === undefined ? undefined : input.action.endsWith('.') ? sql`${auditRecords.action} LIKE ${familyPattern(input.action)}` : eq(auditRecords.action, input.action),
    input.actor === undefined ? undefined : eq(auditRecords.actorUserId, input.actor),
    from ? gte(auditRecords.createdAt, from) : undefined,
    to ? lt(auditRecords.createdAt, to) : undefined,
  ) as SQL;
  const rows = await db
    .select({
      record: auditRecords,
      total: position ? sql<null>`null` : sql<number>`(SELECT count(*) FROM ${auditRecords} WHERE ${filter})`.mapWith(Number),
    })
    .from(auditRecords)
    .where(and(filter, olderThan(auditRecords.createdAt, auditRecords.id, position)))
    .orderBy(desc(auditRecords.createdAt), desc(auditRecords.id))
    .limit(input.limit + 1);
  const hasMore = rows.length > input.limit;
  const items = rows.slice(0, input.limit).map(({ record }) => ({
    id: record.id,
    action: record.action,
    actor: { userId: record.actorUserId, email: record.actorEmail },
    details: record.details,
    ip: record.ip,
    createdAt: record.createdAt.toISOString(),
  }));
  const last = items.at(-1);
  const nextCursor = hasMore && last ? encodeCursor(deps.cursorSecret, binding, { t: last.createdAt, id: last.id }) : null;
  return position ? { items, hasMore, nextCursor } : { items, hasMore, nextCursor, total: rows[0]?.total ?? 0 };
}
