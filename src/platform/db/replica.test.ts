import net from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { openPool } from './database.js';
import { openReplica } from './replica.js';

/** A loopback port nothing listens on: a replica that is down. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const metric = (body: string, name: string) => body.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? null;

describe('READ_DATABASE_URL down', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line).msg as string) });
    t = await startTestApp({ config: { readDatabaseUrl: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres` }, logger });
  });
  afterAll(async () => t?.close());

  it('serves the heavy reads from the primary, says so once, and /metrics shows the replica down', async () => {
    const { token } = await t.tenant();
    for (let i = 0; i < 2; i++) {
      const res = await t.get(token, '/v1/events?limit=5');
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(lines.filter((line) => line.startsWith('read replica unreachable'))).toHaveLength(1);

    const res = await t.request(null, { method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(metric(res.body, 'quorum_replica_up')).toBe('0');
    // prom-client spells NaN "Nan" (Prometheus parses either).
    expect(metric(res.body, 'quorum_replica_lag_seconds')).toBe('Nan');
    expect(Number(metric(res.body, 'quorum_replica_fallback_connections_total'))).toBeGreaterThanOrEqual(2);
  });
});

describe('the replica probe', () => {
  it('reads 0 lag from a server that is not a standby (the topology journey reads a real one)', async () => {
    const primary = openPool(inject('pgAdminUrl'), 1);
    const { database, probe } = openReplica(inject('pgAdminUrl'), primary.pool, { log: () => undefined });
    try {
      expect(await probe.lagSeconds()).toBe(0);
      expect(probe.fallbacks()).toBe(0);
    } finally {
      await database.close();
      await primary.close();
    }
  });
});
