import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { ErrorEnvelope, successEnvelope } from '../../app/envelope.js';

const Status = successEnvelope(Type.Object({ status: Type.String() }));

/** Operational endpoints: liveness, readiness (the database answers) and Prometheus metrics. */
export async function healthRoutes(app: FastifyInstance, opts: { pool: pg.Pool; registry: Registry }) {
  const hidden = { hide: true };
  // Probes arrive every few seconds: their request lines only when the service itself logs at debug.
  const logLevel = app.log.level === 'debug' || app.log.level === 'trace' ? 'debug' : 'warn';
  app.get('/healthz', { logLevel, schema: { ...hidden, response: { 200: Status } } }, async () => ({ success: true, data: { status: 'ok' } }));
  app.get('/readyz', { logLevel, schema: { ...hidden, response: { 200: Status, 503: Type.Ref(ErrorEnvelope) } } }, async (_request, reply) => {
    try {
      await opts.pool.query('SELECT 1');
    } catch {
      // 503, not 500: load balancers take the instance out until the database is back.
      return reply.code(503).send({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'The database does not answer.', details: null } });
    }
    return { success: true, data: { status: 'ready' } };
  });
  app.get('/metrics', { schema: hidden }, async (_request, reply) => {
    reply.header('content-type', opts.registry.contentType);
    return opts.registry.metrics();
  });
}
