import type { DbOrTx } from '../../platform/db/database.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../lib/cursor.js';
import { isNewestFirstPosition } from '../../lib/newest-first.js';
import type { CursorPage } from '../../lib/pagination.js';
import { noDeps } from '../../lib/service.js';
import { listKeys } from './list-keys.js';

type PublicKey = Awaited<ReturnType<typeof listKeys>>[number];

/** One page of the company's keys, newest first; the cursor is bound to the company (INVALID_CURSOR otherwise). */
export async function pageKeys(db: DbOrTx, deps: { cursorSecret: string }, input: { companyId: string; limit: number; cursor?: string }): Promise<CursorPage<PublicKey>> {
  const binding: CursorBinding = { companyId: input.companyId, scope: { route: 'keys' } };
  const after = input.cursor === undefined ? null : decodeCursor(deps.cursorSecret, binding, input.cursor, isNewestFirstPosition);
  // One more than the page: whether it exists is hasMore.
  const rows = await listKeys(db, noDeps, { companyId: input.companyId, limit: input.limit + 1, after });
  const items = rows.slice(0, input.limit);
  const last = items.at(-1);
  const hasMore = rows.length > input.limit;
  return { items, hasMore, nextCursor: hasMore && last ? encodeCursor(deps.cursorSecret, binding, { t: last.createdAt, id: last.id }) : null };
}
