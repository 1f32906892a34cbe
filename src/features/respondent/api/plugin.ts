import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { spendAddressBudget } from '../../../platform/app/address-budget.js';
import { rateLimited } from '../../../platform/app/auth.js';
import { notFoundHandler } from '../../../platform/app/error-handler.js';
import { registerStrictInput } from '../../../platform/app/strict-input.js';
import { MAX_UPLOAD_BYTES } from '../upload-type.js';

/**
 * The platform's rules on the respondent API's scope: the per-address rate limit, strict input,
 * the envelope for unknown routes, no caching of token answers, and the multipart parser of the
 * upload route (one file part, nothing else of size).
 */
export async function registerRespondentPlatform(app: FastifyInstance): Promise<void> {
  registerAddressRateLimit(app);
  registerStrictInput(app);
  app.setNotFoundHandler(notFoundHandler);
  // A token is a credential: answers about it are never kept by a shared cache nor leaked by a referrer.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
  });
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 20, fieldNameSize: 100 },
  });
}

/** The API's sliding-log limiter (memory or Redis, the context's), keyed by the client address. */
function registerAddressRateLimit(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const decision = await spendAddressBudget(app, request, reply);
    if (!decision.allowed) throw rateLimited(decision);
  });
}
