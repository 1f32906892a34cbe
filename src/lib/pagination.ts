/**
 * The two page shapes of the contract (spec: Pagination) as services see them; the HTTP side
 * (query fields, meta) is in src/platform/app/pagination.ts. Services import this, never the HTTP layer.
 */

/** One page of a cursor scan; `total` only on the first page. */
export interface CursorPage<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string | null;
  total?: number;
}

/** Which page of an offset list (page is 1-based). */
export interface OffsetRequest {
  page: number;
  limit: number;
}

/** One page of an offset list and the total across all pages. */
export interface OffsetPage<T> {
  items: T[];
  total: number;
}

/** The rows to skip for `request`. */
export function offsetOf({ page, limit }: OffsetRequest): number {
  return (page - 1) * limit;
}
