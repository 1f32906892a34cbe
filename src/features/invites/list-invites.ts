import { sql } from 'drizzle-orm';
import type { CursorPage } from '../../lib/pagination.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../lib/cursor.js';
import { notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { INVITE_COLUMNS, inviteStatusIn, inviteView, type InviteRow } from './invite-view.js';
import type { InviteStatus, InviteView } from './schemas.js';

export interface ListInvitesInput {
  companyId: string;
  formId: string;
  limit: number;
  cursor?: string;
  /** Filters the stored status, not effectiveStatus (spec). */
  status?: InviteStatus;
}

interface Position {
  t: string;
  id: string;
}

const isPosition = (p: unknown): p is Position =>
  typeof p === 'object' && p !== null && typeof (p as Position).t === 'string' && isUuid((p as Position).id);

/**
 * A page of a form's invites, createdAt desc then id desc (contract decisions), keyset on
 * invites_list_idx. Creation times come from the clock and ids are time-ordered, so an invite
 * created during a scan lands above the cursor. The cursor binds the company, form and status.
 */
export async function listInvites(
  db: DbOrTx,
  deps: { cursorSecret: string; formUrl: string; now: Date },
  input: ListInvitesInput,
): Promise<CursorPage<InviteView>> {
  if (!isUuid(input.formId)) throw notFound('Form');
  const binding: CursorBinding = { companyId: input.companyId, scope: { route: 'forms.invites', formId: input.formId, status: input.status } };
  const position = input.cursor ? decodeCursor(deps.cursorSecret, binding, input.cursor, isPosition) : null;
  const where = sql`i.company_id = ${input.companyId} AND i.form_id = ${input.formId}${input.status ? sql` AND ${inviteStatusIn([input.status])}` : sql``}`;
  const { rows } = await db.execute<InviteRow & { total?: number }>(sql`
    SELECT i.* ${position ? sql`` : sql`, (SELECT count(*) FROM invites i WHERE ${where}) AS total`}
      FROM forms f
      LEFT JOIN LATERAL (
        SELECT ${INVITE_COLUMNS} FROM invites i
         WHERE ${where}${position ? sql` AND (i.created_at, i.id) < (${position.t}::timestamptz, ${position.id}::uuid)` : sql``}
         ORDER BY i.created_at DESC, i.id DESC
         LIMIT ${input.limit + 1}) i ON true
     WHERE f.company_id = ${input.companyId} AND f.id = ${input.formId}
     ORDER BY i."createdAt" DESC, i.id DESC`);
  if (rows.length === 0) throw notFound('Form');
  const hasMore = rows.length > input.limit;
  const pageRows = rows.slice(0, input.limit).filter((row) => row.id !== null);
  const last = pageRows.at(-1);
  const nextCursor = hasMore && last ? encodeCursor(deps.cursorSecret, binding, { t: last.createdAt, id: last.id }) : null;
  const items = pageRows.map((row) => inviteView(row, { formUrl: deps.formUrl, now: deps.now }));
  return position ? { items, hasMore, nextCursor } : { items, hasMore, nextCursor, total: rows[0].total! };
}
