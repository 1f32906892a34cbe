import { Type, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../../lib/errors.js';
import { ERROR_STATUS } from './error-status.js';

/** details of VALIDATION_ERROR: one entry per invalid field. */
export const ValidationDetails = Type.Object(
  {
    fields: Type.Array(
      Type.Object({
        path: Type.String({ description: 'Dotted path of the field: `limit`, `dims.course`, `answers.0`; `body` or `query` for the whole part' }),
        code: Type.String({ description: 'Stable reason: required, invalid_type, out_of_range, invalid_format, unknown_field, ...' }),
        message: Type.String({ description: 'Human text' }),
      }),
    ),
  },
  { $id: 'ValidationDetails', title: 'VALIDATION_ERROR details' },
);

/** details of QUOTA_EXCEEDED: the month's consumption (contract decisions). */
export const QuotaDetails = Type.Object(
  {
    limit: Type.Integer(),
    used: Type.Integer(),
    reserved: Type.Optional(Type.Integer()),
    requested: Type.Optional(Type.Integer()),
    period: Type.Optional(Type.String({ description: 'YYYY-MM (UTC)' })),
  },
  { $id: 'QuotaDetails', title: 'QUOTA_EXCEEDED details' },
);

/** details of ANONYMITY_SUPPRESSED: the institution's floor and the possible authors of the cut. */
export const AnonymityDetails = Type.Object({ floor: Type.Integer(), authors: Type.Integer() }, { $id: 'AnonymityDetails', title: 'ANONYMITY_SUPPRESSED details' });

/** The error envelope of every failed answer. */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ description: 'Stable error code: the contract. Never compare the message.' }),
      message: Type.String({ description: 'Human text; may change at any time.' }),
      details: Type.Union(
        [
          Type.Ref(ValidationDetails),
          Type.Ref(QuotaDetails),
          Type.Ref(AnonymityDetails),
          Type.Object({}, { additionalProperties: true, description: 'Other codes: documented with the code (FORBIDDEN: requiredScope)' }),
          Type.Null(),
        ],
        { description: 'VALIDATION_ERROR: ValidationDetails; QUOTA_EXCEEDED: QuotaDetails; ANONYMITY_SUPPRESSED: AnonymityDetails; null when there is nothing to add' },
      ),
    }),
  },
  {
    $id: 'ErrorEnvelope',
    title: 'Error envelope',
    examples: [
      { success: false, error: { code: 'UNAUTHORIZED', message: 'The API key is missing, invalid, revoked or expired.', details: null } },
      {
        success: false,
        error: { code: 'VALIDATION_ERROR', message: 'The request is invalid.', details: { fields: [{ path: 'limit', code: 'too_large', message: 'limit must be at most 100.' }] } },
      },
    ],
  },
);

export const OffsetMeta = Type.Object(
  { page: Type.Integer({ minimum: 1 }), limit: Type.Integer(), total: Type.Integer(), totalPages: Type.Integer() },
  { $id: 'OffsetMeta' },
);

export const CursorMeta = Type.Object(
  {
    limit: Type.Integer(),
    hasMore: Type.Boolean(),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
    total: Type.Optional(Type.Integer({ description: 'Only on the first page: a snapshot taken at the start of the scan.' })),
  },
  { $id: 'CursorMeta' },
);

export function successEnvelope<T extends TSchema>(data: T, meta?: TSchema) {
  return Type.Object({
    success: Type.Literal(true),
    data,
    ...(meta ? { meta } : {}),
  });
}

/** Per-status error responses of a route, for validation of the answer and for the OpenAPI document. */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  // Any /v1 route may refuse its input (platform rules: strict query numbers, no NUL, no unknown parameter).
  return errorResponsesOf(['UNAUTHORIZED', 'VALIDATION_ERROR', 'RATE_LIMITED', 'INTERNAL_ERROR', ...codes]);
}

/** errorResponses without the /v1 defaults, for routes that take no key (the respondent API). */
export function errorResponsesOf(codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus: Record<number, Set<string>> = {};
  // Any route, GET included, may be refused 413: headers or a URL over 16 KiB (src/platform/app/client-errors.ts).
  for (const code of [...codes, 'PAYLOAD_TOO_LARGE' as const]) {
    (byStatus[ERROR_STATUS[code]] ??= new Set()).add(code);
  }
  return Object.fromEntries(
    Object.entries(byStatus).map(([status, set]) => [
      Number(status),
      Type.Ref(ErrorEnvelope, { description: `Error codes: ${[...set].join(', ')}` }),
    ]),
  );
}

export function ok<T>(data: T, meta?: Record<string, unknown>) {
  return meta ? { success: true as const, data, meta } : { success: true as const, data };
}
