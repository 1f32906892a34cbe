import { createHash } from 'node:crypto';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canonicalJson } from '../../lib/canonical-json.js';
import {
  claimIdempotencyKeys,
  recordIdempotentAnswers,
  releaseIdempotencyKey,
  type ClaimOutcome,
  type IdempotencyClaim,
  type IdempotencyKeyRef,
  type IdempotentAnswer,
} from '../../features/idempotency/index.js';
import { batchWhileBusy } from '../db/batch-while-busy.js';
import { ErrorEnvelope } from './envelope.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency key this request claimed: its answer is recorded when it is sent. */
    idempotency: IdempotencyKeyRef | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** The request header every /v1 POST accepts: validated with the route, published as a parameter. */
const IdempotencyHeaders = Type.Object({
  [IDEMPOTENCY_HEADER]: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'Makes a retry safe: 1–255 printable ASCII characters, unique per request (a UUID), kept 24 hours per API key. A repeat with ' +
        'the same body answers the first answer again with `idempotent-replayed: true` and does nothing; the same key with another ' +
        'body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first runs is 409 IDEMPOTENCY_IN_PROGRESS. Without it a POST runs every time.',
    }),
  ),
});

interface RouteSchema {
  headers?: TSchema;
  response?: Record<string | number, TSchema>;
}

/** Adds the idempotency codes to a POST route's documented (and checked) answers. */
function withIdempotencyAnswers(response: Record<string | number, TSchema> = {}): Record<string | number, TSchema> {
  const conflict = response[409] as (TSchema & { description?: string }) | undefined;
  const conflictCodes = conflict?.description ? `${conflict.description}, IDEMPOTENCY_IN_PROGRESS` : 'Error codes: IDEMPOTENCY_IN_PROGRESS';
  return {
    ...response,
    409: Type.Ref(ErrorEnvelope, { description: conflictCodes }),
    422: Type.Ref(ErrorEnvelope, { description: 'Error codes: IDEMPOTENCY_KEY_REUSED' }),
  };
}

function fingerprint(request: FastifyRequest): Buffer {
  return createHash('sha256').update(`${request.method} ${request.url}\n${canonicalJson(request.body)}`).digest();
}

function replay(reply: FastifyReply, answer: { statusCode: number; contentType: string | null; body: Buffer }): FastifyReply {
  reply.code(answer.statusCode).header(REPLAYED_HEADER, 'true');
  if (answer.contentType) reply.header('content-type', answer.contentType);
  // A Buffer skips the serializer: the replay is the first answer's bytes.
  return reply.send(answer.body);
}

/**
 * Idempotency keys on every /v1 POST, once for all routes (contract decisions, "Idempotency
 * keys"): after authentication and validation a request with `Idempotency-Key` claims the key
 * for its API key; a repeat gets the stored answer and never reaches the handler, so it sends,
 * reserves and emits nothing. The claimed request's answer (its exact bytes) is recorded as it
 * is sent; a 5xx releases the key instead (the work was rolled back, a retry must run). Claims
 * and answers of concurrent requests share statements (batchWhileBusy): the key's cost beside the
 * route's own (bench/README, kit).
 */
export function registerIdempotency(v1: FastifyInstance): void {
  const claim = batchWhileBusy<IdempotencyClaim, ClaimOutcome>((claims) => claimIdempotencyKeys(v1.ctx.db, v1.ctx, { claims }));
  const record = batchWhileBusy<IdempotentAnswer, void>(async (answers) => {
    await recordIdempotentAnswers(v1.ctx.db, v1.ctx, { answers });
    return answers.map(() => undefined);
  });
  v1.decorateRequest('idempotency', null);
  v1.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || route.config?.public) return;
    const schema = (route.schema ?? {}) as RouteSchema;
    if (schema.headers) throw new Error(`POST ${route.url} declares headers: merge ${IDEMPOTENCY_HEADER} into them.`);
    route.schema = { ...route.schema, headers: IdempotencyHeaders, response: withIdempotencyAnswers(schema.response) };
  });
  v1.addHook('preHandler', async (request, reply) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (request.method !== 'POST' || typeof key !== 'string' || !request.auth) return;
    const ref = { companyId: request.auth.company.id, apiKeyId: request.auth.id, key };
    const outcome = await claim({ ...ref, fingerprint: fingerprint(request) });
    if (outcome.kind === 'replay') return replay(reply, outcome.answer);
    request.idempotency = ref;
  });
  v1.addHook('onSend', async (request, reply, payload) => {
    const ref = request.idempotency;
    if (!ref) return payload;
    request.idempotency = null;
    try {
      const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
      if (reply.statusCode >= 500 || !body) await releaseIdempotencyKey(v1.ctx.db, v1.ctx, ref);
      else await record({ ...ref, statusCode: reply.statusCode, contentType: String(reply.getHeader('content-type') ?? '') || null, body });
    } catch (err) {
      // The answer still goes out; the claim lapses after its lease and a repeat then runs again.
      request.log.error({ err }, 'recording the idempotent answer failed');
    }
    return payload;
  });
}
