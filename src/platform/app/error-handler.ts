import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import { ajvFieldErrors, type AjvIssue } from '../../lib/schema-errors.js';
import { isConnectionLoss } from '../db/connection-loss.js';
import { ERROR_STATUS } from './error-status.js';

/**
 * Seconds a client waits after a lost connection: the replica's pool has fallen back to the primary by then.
 * The code stays the spec's INTERNAL_ERROR (a server failure, "repeat with backoff"): its table of codes is closed.
 */
const RETRY_AFTER_CONNECTION_LOSS_S = 1;

function toApiError(error: FastifyError & { validation?: AjvIssue[]; validationContext?: string }): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    return new ApiError('VALIDATION_ERROR', 'The request is invalid.', {
      fields: ajvFieldErrors(error.validation, error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body')),
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
  if (isConnectionLoss(error)) {
    return new ApiError('INTERNAL_ERROR', 'The database connection was lost while answering (a database restarting). Repeat the request.', null, {
      'retry-after': String(RETRY_AFTER_CONNECTION_LOSS_S),
    });
  }
  return pluginClientError(error) ?? new ApiError('INTERNAL_ERROR', 'An internal error occurred. Repeat the request with backoff.');
}

/**
 * A plugin's refusal of the client's request (a 4xx status on the error: multipart limits, static
 * files' path checks) in the envelope's codes: its status alone is not one of the contract's codes.
 */
function pluginClientError(error: FastifyError): ApiError | null {
  const status = error.statusCode ?? 500;
  if (status < 400 || status > 499) return null;
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is too large (size, files or fields).');
  // A path the static files refuse (outside their folder) names nothing, like any unknown path.
  if (status === 403 || status === 404) return new ApiError('NOT_FOUND', 'No such resource.');
  return new ApiError('VALIDATION_ERROR', 'The request is invalid.', { fields: [{ path: 'body', code: 'invalid_format', message: error.message }] });
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(ERROR_STATUS[error.code]).send({
    success: false,
    error: { code: error.code, message: error.message, details: error.details },
  });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (isConnectionLoss(error)) request.log.warn({ err: error }, 'database connection lost mid-request: 500 with retry-after');
    else if (apiError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, apiError);
  });
  app.setNotFoundHandler(notFoundHandler);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, new ApiError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`));
}
