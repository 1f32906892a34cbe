import { sql, type SQL } from 'drizzle-orm';
import type { CursorPage } from '../../lib/pagination.js';
import type { Db, DbOrTx } from '../../platform/db/database.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../lib/cursor.js';
import { validationError } from '../../lib/errors.js';
import { parseInstant } from '../../lib/date-time.js';
import { isUuid } from '../../lib/ids.js';
import { awaitRosterWrites } from './roster-lock.js';
import type { EnrollmentStatus } from './table.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

export interface ListEnrollmentsInput {
  companyId: string;
  limit: number;
  cursor?: string;
  status?: EnrollmentStatus;
  /** ISO 8601; inclusive. */
  changedSince?: string;
  classCode?: string;
  classGroupId?: string;
  /** The unit and every unit below it. */
  orgUnitId?: string;
}

/** The last row of the previous page: statusChangedAt (JSON text) and id. */
interface Position {
  t: string;
  id: string;
}

const isPosition = (p: unknown): p is Position =>
  typeof p === 'object' && p !== null && typeof (p as Position).t === 'string' && isUuid((p as Position).id) && !Number.isNaN(Date.parse((p as Position).t));

/** changedSince as the instant it names (src/lib/date-time.ts: years 1 to 9999, a leap second read), or VALIDATION_ERROR. */
function changedSinceInstant(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const at = parseInstant(value);
  if (at === null) {
    throw validationError([{ path: 'changedSince', code: 'invalid_format', message: 'changedSince must be an ISO 8601 timestamp.' }]);
  }
  return at.toISOString();
}

/** The filters as a WHERE clause on e (enrollments) and c (its class); shared by the page and its total. */
function filterSql(companyId: string, input: ListEnrollmentsInput, since: string | undefined): SQL {
  const conditions = [sql`e.company_id = ${companyId}`];
  if (input.status) conditions.push(sql`e.status = ${input.status}`);
  if (since) conditions.push(sql`e.status_changed_at >= ${since}::timestamptz`);
  if (input.classCode !== undefined) conditions.push(sql`c.code = ${input.classCode}`);
  if (input.classGroupId) conditions.push(isUuid(input.classGroupId) ? sql`c.class_group_id = ${input.classGroupId}::uuid` : sql`false`);
  if (input.orgUnitId) {
    // A subtree is one prefix test on the units' org_path (entities, migration 0100).
    conditions.push(
      isUuid(input.orgUnitId)
        ? sql`c.org_unit_id IN (SELECT u.id FROM entities u, entities top
              WHERE top.company_id = ${companyId} AND top.id = ${input.orgUnitId}::uuid AND top.kind = 'unit'
                AND u.company_id = ${companyId} AND u.kind = 'unit' AND u.org_path LIKE top.org_path || '%')`
        : sql`false`,
    );
  }
  return sql.join(conditions, sql` AND `);
}

/**
 * One page in one statement: the rows (one extra tells whether more follow), formatted to JSON
 * text after the LIMIT, and on the first page the total, counted in the same snapshot.
 */
export function enrollmentPageSql(input: ListEnrollmentsInput, since: string | undefined, position: Position | null): SQL {
  const where = filterSql(input.companyId, input, since);
  const keyset = position ? sql` AND (e.status_changed_at, e.id) > (${position.t}::timestamptz, ${position.id}::uuid)` : sql``;
  const total = position
    ? sql`SELECT NULL::int AS total`
    : sql`SELECT count(*)::int AS total FROM enrollments e JOIN classes c ON c.company_id = e.company_id AND c.id = e.class_id WHERE ${where}`;
  return sql`
    SELECT n.total, ${isoTimestamp(sql`e.status_changed_at`)} AS t, e.id,
           json_build_object(
             'id', e.id, 'status', e.status, 'statusChangedAt', ${isoTimestamp(sql`e.status_changed_at`)}, 'createdAt', ${isoTimestamp(sql`e.created_at`)},
             'person', json_build_object('id', p.id, 'externalId', p.external_id, 'name', p.name, 'email', p.email, 'phone', p.phone),
             'class', json_build_object('id', c.id, 'code', c.code, 'name', c.name, 'classGroupId', c.class_group_id,
                                        'courseItemId', c.course_item_id, 'orgUnitId', c.org_unit_id)
           )::text AS item
      FROM (${total}) AS n
      LEFT JOIN LATERAL (
        SELECT e.id, e.person_id, e.class_id, e.status, e.status_changed_at, e.created_at
          FROM enrollments e JOIN classes c ON c.company_id = e.company_id AND c.id = e.class_id
         WHERE ${where}${keyset}
         ORDER BY e.status_changed_at, e.id
         LIMIT ${input.limit + 1}
      ) AS e ON true
      LEFT JOIN people p ON p.company_id = ${input.companyId} AND p.id = e.person_id
      LEFT JOIN classes c ON c.company_id = ${input.companyId} AND c.id = e.class_id
     ORDER BY e.status_changed_at, e.id`;
}

function cursorBinding(input: ListEnrollmentsInput, since: string | undefined): CursorBinding {
  const { status, classCode, classGroupId, orgUnitId } = input;
  return { companyId: input.companyId, scope: { route: 'enrollments', status, changedSince: since, classCode, classGroupId, orgUnitId } };
}

type PageRow = { total: number | null; t: string | null; id: string | null; item: string | null };

/**
 * A page of the company's enrollments, statusChangedAt asc then id asc, each as JSON text. The
 * first page waits for roster writes in flight (roster-lock.ts): with changedSince set to the
 * time the previous scan started, no change is missed. A row changed during a scan moves to its
 * new place and may be seen again later in the scan; it is never skipped.
 */
export async function listEnrollments(db: Db, deps: { cursorSecret: string }, input: ListEnrollmentsInput): Promise<CursorPage<string>> {
  const since = changedSinceInstant(input.changedSince);
  const binding = cursorBinding(input, since);
  const position = input.cursor ? decodeCursor(deps.cursorSecret, binding, input.cursor, isPosition) : null;
  const read = async (handle: DbOrTx) => (await handle.execute<PageRow>(enrollmentPageSql(input, since, position))).rows;
  const rows = position
    ? await read(db)
    : await db.transaction(async (tx) => {
        await awaitRosterWrites(tx, input.companyId);
        return read(tx);
      });
  const pageRows = rows.filter((row) => row.id !== null);
  const hasMore = pageRows.length > input.limit;
  const items = pageRows.slice(0, input.limit);
  const last = items.at(-1);
  const nextCursor = hasMore && last ? encodeCursor(deps.cursorSecret, binding, { t: last.t!, id: last.id! }) : null;
  const page = { items: items.map((row) => row.item!), hasMore, nextCursor };
  return position ? page : { ...page, total: rows[0].total! };
}
