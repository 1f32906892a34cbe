import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { ErrorEnvelope, successEnvelope } from '../../app/envelope.js';
import { ApiError } from '../../lib/errors.js';

const Status = successEnvelope(Type.Object({ status: Type.String() }));

/** Operational endpoints: liveness, readiness (the database answers) and Prometheus metrics. */
export async function healthRoutes(app: FastifyInstance, opts: { pool: pg.Pool; registry: Registry }) {
  const hidden = { hide: true };
  app.get('/healthz', { schema: { ...hidden, response: { 200: Status } } }, async () => ({ success: true, data: { status: 'ok' } }));
  app.get('/readyz', { schema: { ...hidden, response: { 200: Status, 503: Type.Ref(ErrorEnvelope) } } }, async () => {
    try {
      await opts.pool.query('SELECT 1');
    } catch {
      throw new ApiError('INTERNAL_ERROR', 'The database does not answer.');
    }
    return { success: true, data: { status: 'ready' } };
  });
  app.get('/metrics', { schema: hidden }, async (_request, reply) => {
    reply.header('content-type', opts.registry.contentType);
    return opts.registry.metrics();
  });
}
