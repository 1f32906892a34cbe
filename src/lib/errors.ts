/** Every error code of the contract with its HTTP status. The code is the contract; messages are for people. */
export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  VALIDATION_ERROR: 400,
  INVALID_CURSOR: 400,
  PAGE_NOT_SUPPORTED: 400,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  ANONYMITY_SUPPRESSED: 409,
  DUPLICATE_INVITE: 409,
  ALREADY_RESPONDED: 409,
  QUOTA_EXCEEDED: 403,
  CHANNEL_NOT_CONFIGURED: 403,
  TEMPLATE_REQUIRED: 400,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** extension code of the roster import (contract decisions) */
  DROP_THRESHOLD_EXCEEDED: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  path: string;
  code: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export function validationError(fields: FieldError[], message = 'The request is invalid.'): ApiError {
  return new ApiError('VALIDATION_ERROR', message, { fields });
}

export function notFound(what = 'Resource'): ApiError {
  return new ApiError('NOT_FOUND', `${what} not found.`);
}
