import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import type { CursorPage, OffsetPage, OffsetRequest } from '../../lib/pagination.js';

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
  // An empty cursor is an unreadable one (docs/contract.md, Pagination), not a bad parameter nor a first page.
  if ((request.query as { cursor?: unknown }).cursor === '') {
    throw new ApiError('INVALID_CURSOR', 'The cursor is not valid for this request. Restart the scan without a cursor.');
  }
}


/** meta of the cursor form: limit, hasMore, nextCursor, and total on the first page only. */
export function cursorMeta(page: CursorPage<unknown>, limit: number) {
  const meta = { limit, hasMore: page.hasMore, nextCursor: page.nextCursor };
  return page.total === undefined ? meta : { ...meta, total: page.total };
}

/** The query parameters every offset route shares (spec: Pagination, offset form). */
export const OFFSET_DEFAULT_LIMIT = 20;
export const offsetQueryFields = {
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1, description: '1-based page number; a page past the end is empty and still carries the total' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: OFFSET_DEFAULT_LIMIT, description: 'Page size' })),
};

/** The page asked for, defaults applied (ajv fills them too; this keeps the types exact). */
export function offsetRequest(query: { page?: number; limit?: number }): OffsetRequest {
  return { page: query.page ?? 1, limit: query.limit ?? OFFSET_DEFAULT_LIMIT };
}

/** meta of the offset form: page, limit, total, totalPages. */
export function offsetMeta({ page, limit }: OffsetRequest, { total }: OffsetPage<unknown>) {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}
