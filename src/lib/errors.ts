import type { FieldErrorCode } from './field-errors.js';
/**
 * Every error code of the contract. The code is the contract; messages are for people. Codes only:
 * what an error means over HTTP is the error handler's table (src/platform/app/error-status.ts), so a
 * service failing inside a job or a CLI command means the same thing there.
 */
export const ERROR_CODES = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'VALIDATION_ERROR',
  'INVALID_CURSOR',
  'PAGE_NOT_SUPPORTED',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'ANONYMITY_SUPPRESSED',
  'DUPLICATE_INVITE',
  'ALREADY_RESPONDED',
  'QUOTA_EXCEEDED',
  'CHANNEL_NOT_CONFIGURED',
  'TEMPLATE_REQUIRED',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  /** extension code of the roster import (contract decisions) */
  'DROP_THRESHOLD_EXCEEDED',
  /** extension codes of the respondent surface (/r/v1 and the pages; contract decisions) */
  'INVITE_GONE',
  'FORM_CLOSED',
  'INVITE_REQUIRED',
  /** extension codes of idempotency keys on /v1 POSTs (contract decisions) */
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  path: string;
  /** One of the one vocabulary (src/lib/field-errors.ts), so every surface names a fault alike. */
  code: FieldErrorCode;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function validationError(fields: FieldError[], message = 'The request is invalid.'): ApiError {
  return new ApiError('VALIDATION_ERROR', message, { fields });
}

export function notFound(what = 'Resource'): ApiError {
  return new ApiError('NOT_FOUND', `${what} not found.`);
}
