import type { DbOrTx } from '../../platform/db/database.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../lib/cursor.js';
import { isUuid } from '../../lib/ids.js';
import type { CursorPage } from '../../lib/pagination.js';
import { noDeps } from '../../lib/service.js';
import { listDeliveries } from './list-deliveries.js';

type Delivery = Awaited<ReturnType<typeof listDeliveries>>[number];
type Position = { id: string };
const isPosition = (p: unknown): p is Position => typeof p === 'object' && p !== null && isUuid((p as Position).id);

export interface DeliveryPageInput {
  companyId: string;
  subscriptionId?: string;
  eventId?: string;
  status?: string;
  limit: number;
  cursor?: string;
}

/**
 * One page of a company's delivery log, newest first (listDeliveries keyed on the UUIDv7 id); the
 * cursor is bound to the company and the filters (INVALID_CURSOR otherwise).
 */
export async function pageDeliveries(db: DbOrTx, deps: { cursorSecret: string }, input: DeliveryPageInput): Promise<CursorPage<Delivery>> {
  const { cursor, limit, ...filter } = input;
  const binding: CursorBinding = { companyId: filter.companyId, scope: { route: 'webhook-deliveries', subscriptionId: filter.subscriptionId, eventId: filter.eventId, status: filter.status } };
  const before = cursor === undefined ? undefined : decodeCursor(deps.cursorSecret, binding, cursor, isPosition).id;
  // One more than the page: whether it exists is hasMore (listDeliveries checks the limit's bounds).
  const rows = await listDeliveries(db, noDeps, { ...filter, limit: limit + 1, before });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const hasMore = rows.length > limit;
  return { items, hasMore, nextCursor: hasMore && last ? encodeCursor(deps.cursorSecret, binding, { id: last.id }) : null };
}
