import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import { countRequest, type AuthDeps } from './auth.js';
import { sendError } from './error-handler.js';

/**
 * Fastify's router answers some URLs before any route or hook runs (bad percent-encoding, a path
 * segment over maxParamLength); this puts those answers in the envelope with x-request-id.
 * A segment too long to be any id names no resource: 404, like any other unknown path.
 * Under /v1 the request still counts against its key's budget (or its address's failure budget)
 * and carries that budget's ratelimit-* headers, as every answer of the API does. `auth` is known
 * once the app has its authenticator.
 */
export function frameworkErrors(auth: () => AuthDeps | undefined) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
    const path = request.url.split('?')[0];
    const apiError =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new ApiError('NOT_FOUND', `No route ${request.method} ${path.slice(0, 200)}.`)
        : new ApiError('VALIDATION_ERROR', 'The URL is not valid.', {
            fields: [{ path: 'url', code: 'invalid_format', message: 'is not a valid URL (check its percent-encoding)' }],
          });
    const deps = auth();
    if (!deps || !/^\/v1(\/|$)/.test(path)) {
      sendError(reply, apiError);
      return;
    }
    countRequest(request, reply, deps).then(
      () => sendError(reply, apiError),
      (refusal: unknown) => sendError(reply, refusal instanceof ApiError ? refusal : new ApiError('INTERNAL_ERROR', 'An internal error occurred.')),
    );
  };
}
