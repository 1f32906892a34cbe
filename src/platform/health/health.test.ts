import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { AnonymityDetails, ErrorEnvelope, QuotaDetails, ValidationDetails } from '../app/envelope.js';
import { healthRoutes } from './routes.js';

// Nothing listens on port 1: a database that has gone away.
const deadPool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres', connectionTimeoutMillis: 2_000 });
deadPool.on('error', () => undefined);
afterAll(() => deadPool.end());

async function appLogging(level: string, lines: string[]) {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const app = Fastify({ logger: { level, stream } });
  for (const schema of [ValidationDetails, QuotaDetails, AnonymityDetails, ErrorEnvelope]) app.addSchema(schema);
  await app.register(healthRoutes, { pool: deadPool, registry: new Registry(), metricsToken: null });
  return app;
}

describe('health endpoints', () => {
  it('log probes only when the service logs at debug', async () => {
    const quiet: string[] = [];
    const app = await appLogging('info', quiet);
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect(quiet).toEqual([]);
    await app.close();

    const verbose: string[] = [];
    const debugging = await appLogging('debug', verbose);
    await debugging.inject({ url: '/healthz' });
    expect(verbose.join('')).toContain('/healthz');
    await debugging.close();
  });

  it('/readyz answers 503 in the envelope when the database is gone', async () => {
    const app = await appLogging('info', []);
    const res = await app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'The database does not answer.', details: null } });
    await app.close();
  });
});
