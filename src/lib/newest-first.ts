import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { isUuid } from './ids.js';

/** Where a newest-first list (time desc, id desc) stopped: the last row's time as JSON text, and its id. */
export interface NewestFirstPosition {
  t: string;
  id: string;
}

export function isNewestFirstPosition(p: unknown): p is NewestFirstPosition {
  const pos = p as NewestFirstPosition;
  return typeof pos === 'object' && pos !== null && typeof pos.t === 'string' && isUuid(pos.id);
}

/** The rows after `position` in that order (the keyset condition); none on the first page. */
export function olderThan(time: AnyColumn, id: AnyColumn, position: NewestFirstPosition | null): SQL | undefined {
  return position ? sql`(${time}, ${id}) < (${position.t}::timestamptz, ${position.id}::uuid)` : undefined;
}
