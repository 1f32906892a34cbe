import { Type } from '@sinclair/typebox';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { ErrorEnvelope, successEnvelope } from '../app/envelope.js';
import { ApiError } from '../../lib/errors.js';
import { isLoopbackClient } from '../../lib/loopback-client.js';
import type { Readiness } from './readiness.js';

const Status = successEnvelope(Type.Object({ status: Type.String() }));

/**
 * The server listens on 0.0.0.0 by default, and metrics name routes, volumes and queue depths:
 * only a loopback client or the METRICS_TOKEN bearer may read them.
 */
function metricsAllowed(request: FastifyRequest, token: string | null): boolean {
  if (isLoopbackClient(request)) return true;
  if (!token) return false;
  const given = Buffer.from(/^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const notReady = (message: string, details: Record<string, unknown> | null) => ({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message, details } });

/** Operational endpoints: liveness, readiness (start-up work done, the database answers) and Prometheus metrics. */
export async function healthRoutes(app: FastifyInstance, opts: { pool: pg.Pool; registry: Registry; metricsToken: string | null; readiness?: Readiness }) {
  const hidden = { hide: true };
  // Probes arrive every few seconds: their request lines only when the service itself logs at debug.
  const logLevel = app.log.level === 'debug' || app.log.level === 'trace' ? 'debug' : 'warn';
  app.get('/healthz', { logLevel, schema: { ...hidden, response: { 200: Status } } }, async () => ({ success: true, data: { status: 'ok' } }));
  app.get('/readyz', { logLevel, schema: { ...hidden, response: { 200: Status, 503: Type.Ref(ErrorEnvelope) } } }, async (_request, reply) => {
    // Listening is not ready: a first start answers /healthz while the demo and its key are still being made.
    const pending = opts.readiness?.pending() ?? [];
    if (pending.length > 0) return reply.code(503).send(notReady(`Starting: ${pending.join('; ')}.`, { pending }));
    try {
      await opts.pool.query('SELECT 1');
    } catch {
      // 503, not 500: load balancers take the instance out until the database is back.
      return reply.code(503).send(notReady('The database does not answer.', null));
    }
    return { success: true, data: { status: 'ready' } };
  });
  app.get('/metrics', { schema: hidden }, async (request, reply) => {
    if (!metricsAllowed(request, opts.metricsToken)) {
      throw new ApiError('UNAUTHORIZED', 'Metrics answer only to loopback clients or the METRICS_TOKEN bearer.');
    }
    reply.header('content-type', opts.registry.contentType);
    return opts.registry.metrics();
  });
}
