import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors.js';

/** The query parameters every cursor route shares (spec: Pagination, cursor form). */
export const CURSOR_DEFAULT_LIMIT = 20;
export const cursorQueryFields = {
  cursor: Type.Optional(
    // No maxLength: a cursor too long to be one is unreadable, INVALID_CURSOR (spec), not a bad parameter.
    Type.String({
      minLength: 1,
      description: 'The exact `meta.nextCursor` of the previous page; omit it for the first page. Opaque: its format may change.',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: CURSOR_DEFAULT_LIMIT, description: 'Page size, 1 to 100.' })),
};

/**
 * preValidation hook of every cursor route: `page` is refused with PAGE_NOT_SUPPORTED, never
 * ignored, and before schema validation so that no other bad parameter hides it.
 */
export async function rejectPageParameter(request: FastifyRequest): Promise<void> {
  if (Object.hasOwn(request.query as object, 'page')) {
    throw new ApiError('PAGE_NOT_SUPPORTED', 'This route pages with cursors: remove page and pass meta.nextCursor as cursor.');
  }
  // An empty cursor is an unreadable one (cursor rule 6), not a bad parameter nor a first page.
  if ((request.query as { cursor?: unknown }).cursor === '') {
    throw new ApiError('INVALID_CURSOR', 'The cursor is not valid for this request. Restart the scan without a cursor.');
  }
}

/** One page of a cursor scan as services return it; `total` only on the first page. */
export interface CursorPage<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string | null;
  total?: number;
}

/** meta of the cursor form: limit, hasMore, nextCursor, and total on the first page only. */
export function cursorMeta(page: CursorPage<unknown>, limit: number) {
  const meta = { limit, hasMore: page.hasMore, nextCursor: page.nextCursor };
  return page.total === undefined ? meta : { ...meta, total: page.total };
}
