import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors.js';
import { sendError } from './error-handler.js';

/**
 * Fastify's router answers some URLs before any route or hook runs (bad percent-encoding, a path
 * segment over maxParamLength); this puts those answers in the envelope with x-request-id.
 * A segment too long to be any id names no resource: 404, like any other unknown path.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  const path = request.url.split('?')[0];
  const apiError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError('NOT_FOUND', `No route ${request.method} ${path.slice(0, 200)}.`)
      : new ApiError('VALIDATION_ERROR', 'The URL is not valid.', {
          fields: [{ path: 'url', code: 'invalid_format', message: 'is not a valid URL (check its percent-encoding)' }],
        });
  sendError(reply, apiError);
}
