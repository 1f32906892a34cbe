import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { running } from '../scripts/topology/processes.js';
import type { TopologyState } from '../scripts/topology/state.js';
import { runQuorum } from './cli.js';
import { ContractChecker, type OpenApiDocument } from './contract.js';

/**
 * scripts/topology end to end: a small topology (a primary and one streaming replica, Redis,
 * HAProxy in front of 2 API processes, 1 worker) started with one command, a request through the
 * balancer whose read the replica serves, and one command that stops it all, leaving no process.
 */
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const MAIN = join(process.cwd(), 'scripts', 'topology', 'main.ts');
const dir = mkdtempSync(join(tmpdir(), 'quorum-topology-test-'));
const topology = (...args: string[]) => promisify(execFile)(TSX, [MAIN, '--dir', dir, ...args], { env: { ...process.env, TEST_DATABASE_URL: '' } });

let state: TopologyState;
beforeAll(async () => {
  state = JSON.parse((await topology('start', '--api', '2', '--workers', '1', '--source')).stdout) as TopologyState;
}, 300_000);
afterAll(async () => {
  // A failed test still stops what was started; stopping twice is a no-op.
  await topology('stop').catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

async function onReplica<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: state.replicaUrl });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('the topology', () => {
  it('runs a physical standby of the primary', async () => {
    const [standby] = await onReplica<{ recovering: boolean; conninfo: string | null }>(
      `SELECT pg_is_in_recovery() AS recovering, (SELECT conninfo FROM pg_stat_wal_receiver) AS conninfo`,
    );
    expect(standby.recovering).toBe(true);
    expect(standby.conninfo).toContain(`port=${new URL(state.primaryUrl).port}`);
  });

  it('answers a read through HAProxy, served by the replica', { timeout: 120_000 }, async () => {
    const env = { DATABASE_URL: state.primaryUrl, QUORUM_DATA_DIR: join(dir, 'data'), TEST_DATABASE_URL: '' };
    expect((await runQuorum(['company', 'create', '--name', 'Topology School', '--slug', 'topology'], env)).code).toBe(0);
    const created = await runQuorum(['--json', 'key', 'create', '--company', 'topology', '--name', 'reader', '--scopes', 'all'], env);
    expect(created.code).toBe(0);
    const token = (JSON.parse(created.stdout) as { token: string }).token;
    const contract = new ContractChecker((await (await fetch(`${state.balancerUrl}/v1/openapi.json`)).json()) as OpenApiDocument);

    // Round robin: two requests reach both API processes, each reading the events from the replica.
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${state.balancerUrl}/v1/events?limit=5`, { headers: { authorization: `Bearer ${token}` } });
      const body = await answer.text();
      expect(answer.status, body).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe('60');
      contract.check('GET', '/v1/events', answer.status, body);
    }
    // pg_stat_activity keeps each pooled connection's last statement: the events page ran on the standby.
    const reads = await onReplica<{ query: string }>(`SELECT query FROM pg_stat_activity WHERE application_name = 'quorum' AND query ILIKE '%from "events"%'`);
    expect(reads.length).toBeGreaterThanOrEqual(1);
  });

  it('shows the replica lag on /metrics, and reads fall back to the primary while the replica is stopped', { timeout: 120_000 }, async () => {
    const metrics = async () => (await fetch(`${state.apiUrls[0]}/metrics`)).text();
    const before = await metrics();
    expect(before).toMatch(/^quorum_replica_up 1$/m);
    expect(Number(before.match(/^quorum_replica_lag_seconds (\S+)$/m)?.[1])).toBeGreaterThanOrEqual(0);

    await topology('replica', 'stop');
    const env = { DATABASE_URL: state.primaryUrl, QUORUM_DATA_DIR: join(dir, 'data'), TEST_DATABASE_URL: '' };
    const token = (JSON.parse((await runQuorum(['--json', 'key', 'create', '--company', 'topology', '--name', 'during', '--scopes', 'all'], env)).stdout) as { token: string }).token;
    // Four requests in round robin: two reach the process whose /metrics is read.
    for (let i = 0; i < 4; i++) {
      const answer = await fetch(`${state.balancerUrl}/v1/events?limit=5`, { headers: { authorization: `Bearer ${token}` } });
      expect(answer.status, await answer.text()).toBe(200);
    }
    const during = await metrics();
    expect(during).toMatch(/^quorum_replica_up 0$/m);
    expect(Number(during.match(/^quorum_replica_fallback_connections_total (\S+)$/m)?.[1])).toBeGreaterThan(0);
    const logs = ['api1', 'api2'].map((name) => readFileSync(join(dir, 'logs', `${name}.log`), 'utf8')).join('');
    expect(logs).toContain('read replica unreachable');

    await topology('replica', 'start');
    expect(await metrics()).toMatch(/^quorum_replica_up 1$/m);
  });

  it('stops everything with one command, leaving no process', { timeout: 120_000 }, async () => {
    await topology('stop');
    expect(state.processes.map((p) => p.name).sort()).toEqual(['api1', 'api2', 'haproxy', 'redis', 'worker1']);
    expect(state.processes.filter((p) => running(p.pid)).map((p) => p.name)).toEqual([]);
    expect(state.clusters.filter((c) => existsSync(join(c.pgData, 'postmaster.pid'))).map((c) => c.name)).toEqual([]);
    expect((await topology('status')).stderr).toContain('not started');
  });
});
