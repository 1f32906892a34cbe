import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type FieldError } from '../lib/errors.js';

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const KEYWORD_CODES: Record<string, string> = {
  required: 'required',
  type: 'invalid_type',
  minimum: 'out_of_range',
  maximum: 'out_of_range',
  exclusiveMinimum: 'out_of_range',
  exclusiveMaximum: 'out_of_range',
  format: 'invalid_format',
  pattern: 'invalid_format',
  enum: 'invalid_value',
  const: 'invalid_value',
  anyOf: 'invalid_value',
  minLength: 'invalid_length',
  maxLength: 'invalid_length',
  minItems: 'invalid_length',
  maxItems: 'invalid_length',
  uniqueItems: 'duplicate_value',
  additionalProperties: 'unknown_field',
  minProperties: 'required',
};

/** Turns ajv's `/dims/course` plus the missing or extra property into `dims.course`. */
function issuePath(issue: AjvIssue, context: string | undefined): string {
  const segments = issue.instancePath.split('/').filter(Boolean);
  const extra = issue.params.missingProperty ?? issue.params.additionalProperty;
  if (typeof extra === 'string') segments.push(extra);
  const path = segments.join('.');
  if (path) return path;
  return context === 'querystring' ? 'query' : (context ?? 'body');
}

export function fieldErrorsFromValidation(issues: AjvIssue[], context: string | undefined): FieldError[] {
  return issues.map((issue) => ({
    path: issuePath(issue, context),
    code: KEYWORD_CODES[issue.keyword] ?? 'invalid',
    message: issue.message ?? 'is invalid',
  }));
}

function toApiError(error: FastifyError & { validation?: AjvIssue[]; validationContext?: string }): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    return new ApiError('VALIDATION_ERROR', 'The request is invalid.', {
      fields: fieldErrorsFromValidation(error.validation, error.validationContext),
    });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('VALIDATION_ERROR', 'The body must be JSON with content type application/json.', {
        fields: [{ path: 'content-type', code: 'unsupported_media_type', message: 'must be application/json' }],
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('VALIDATION_ERROR', 'The body is not valid JSON.', {
        fields: [{ path: 'body', code: 'invalid_json', message: error.message }],
      });
  }
  if (error.statusCode === 400 && error instanceof SyntaxError) {
    return new ApiError('VALIDATION_ERROR', 'The body is not valid JSON.', {
      fields: [{ path: 'body', code: 'invalid_json', message: error.message }],
    });
  }
  return new ApiError('INTERNAL_ERROR', 'An internal error occurred. Repeat the request with backoff.');
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.status).send({
    success: false,
    error: { code: error.code, message: error.message, details: error.details },
  });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, apiError);
  });
  app.setNotFoundHandler(notFoundHandler);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, new ApiError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`));
}
