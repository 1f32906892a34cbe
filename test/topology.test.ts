import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../bench/soak-checks.js';
import { findQuestionId } from '../bench/soak-mix.js';
import { running, waitFor } from '../scripts/topology/processes.js';
import type { TopologyState } from '../scripts/topology/state.js';
import { runQuorum } from './cli.js';
import { ContractChecker, type OpenApiDocument } from './contract.js';
import { minimalForm } from './forms.js';

/**
 * scripts/topology end to end: a small topology (a primary and one streaming replica, Redis,
 * HAProxy in front of 2 API processes, 1 worker) started with one command, a request through the
 * balancer whose read the replica serves, the replica stopped and started under reads, one key's
 * limit shared by both processes, an API process SIGKILLed under writes, and one command that
 * stops it all, leaving no process.
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

const cliEnv = () => ({ DATABASE_URL: state.primaryUrl, QUORUM_DATA_DIR: join(dir, 'data'), TEST_DATABASE_URL: '' });

/** A key of the test's company, made with the CLI against the primary. */
async function newKey(name: string, rateLimit: string): Promise<string> {
  const created = await runQuorum(['--json', 'key', 'create', '--company', 'topology', '--name', name, '--scopes', 'all', '--rate-limit', rateLimit], cliEnv());
  expect(created.code, created.stderr).toBe(0);
  return (JSON.parse(created.stdout) as { token: string }).token;
}

const onReplica = <T extends pg.QueryResultRow>(text: string) => query<T>(state.replicaUrl, text);
const onPrimary = <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => query<T>(state.primaryUrl, text, values);

describe('the topology', () => {
  it('runs a physical standby of the primary', async () => {
    const [standby] = await onReplica<{ recovering: boolean; conninfo: string | null }>(
      `SELECT pg_is_in_recovery() AS recovering, (SELECT conninfo FROM pg_stat_wal_receiver) AS conninfo`,
    );
    expect(standby.recovering).toBe(true);
    expect(standby.conninfo).toContain(`port=${new URL(state.primaryUrl).port}`);
  });

  it('answers a read through HAProxy, served by the replica', { timeout: 120_000 }, async () => {
    expect((await runQuorum(['company', 'create', '--name', 'Topology School', '--slug', 'topology'], cliEnv())).code).toBe(0);
    const token = await newKey('reader', '60');
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
    const token = await newKey('during', '60');
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

  it("admits exactly one key's limit across both API processes (Redis)", { timeout: 120_000 }, async () => {
    const token = await newKey('limited', '10');
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async () => (await fetch(`${state.balancerUrl}/v1/events?limit=1`, { headers: { authorization: `Bearer ${token}` } })).status),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  /** The replica has replayed everything the primary wrote so far. */
  async function caughtUp(): Promise<void> {
    const [{ lsn }] = await onPrimary<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    await waitFor('the replica to catch up', async () => (await onReplica<{ ok: boolean }>(`SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`))[0].ok);
  }

  it('keeps a keyset scan over a lagging replica exact (no row skipped or repeated) and the first page total a snapshot', { timeout: 240_000 }, async () => {
    const formFile = join(dir, 'lag-form.json');
    writeFileSync(formFile, JSON.stringify(minimalForm('lag-survey')));
    expect((await runQuorum(['form', 'import', '--company', 'topology', formFile], cliEnv())).code).toBe(0);
    const [form] = await onPrimary<{ id: string }>(`SELECT id FROM forms WHERE slug = 'lag-survey'`);
    const token = await newKey('scanner', '10000');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const contract = new ContractChecker((await (await fetch(`${state.balancerUrl}/v1/openapi.json`)).json()) as OpenApiDocument);
    // A response as a respondent gives it: an invite, its link opened and submitted, all through HAProxy.
    const respond = async (n: number) => {
      const created = await fetch(`${state.balancerUrl}/v1/forms/${form.id}/invites`, { method: 'POST', headers, body: JSON.stringify({ email: `lag${n}@topology.test` }) });
      const link = ((await created.json()) as { data: { url: string } }).data.url;
      const respondent = { 'content-type': 'application/json', 'x-forwarded-for': `10.88.0.${n}` };
      const opened = await (await fetch(`${state.balancerUrl}/r/v1/invites/${link.split('/').at(-1)}`, { headers: respondent })).json();
      const submitted = await fetch(`${state.balancerUrl}/r/v1/invites/${link.split('/').at(-1)}/submit`, {
        method: 'POST',
        headers: respondent,
        body: JSON.stringify({ answers: { [findQuestionId(opened)!]: `answer ${n}` } }),
      });
      expect(submitted.status, await submitted.text()).toBe(201);
    };
    const page = async (cursor?: string) => {
      const url = `/v1/forms/${form.id}/responses`;
      const answer = await fetch(`${state.balancerUrl}${url}?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers });
      const body = await answer.text();
      expect(answer.status, body).toBe(200);
      contract.check('GET', url, answer.status, body);
      return JSON.parse(body) as { data: { id: string }[]; meta: { total?: number; nextCursor: string | null } };
    };

    for (let n = 0; n < 25; n++) await respond(n);
    await caughtUp();
    const existing = (await onPrimary<{ id: string }>('SELECT id FROM responses WHERE form_id = $1', [form.id])).map((r) => r.id);

    // The standby stops replaying: what the primary commits from now on, the scan's reads do not see.
    await onReplica('SELECT pg_wal_replay_pause()');
    const pages = [];
    try {
      pages.push(await page());
      for (let n = 25; n < 30; n++) await respond(n);
      const [replica] = await onReplica<{ n: number }>(`SELECT count(*)::int AS n FROM responses WHERE form_id = '${form.id}'`);
      expect(replica.n).toBe(25);
      pages.push(await page(pages.at(-1)!.meta.nextCursor!));
    } finally {
      await onReplica('SELECT pg_wal_replay_resume()');
    }
    // Caught up again, the scan goes on to its end over rows the replica now has.
    await caughtUp();
    while (pages.at(-1)!.meta.nextCursor) pages.push(await page(pages.at(-1)!.meta.nextCursor!));

    const seen = pages.flatMap((p) => p.data.map((row) => row.id));
    expect(seen).toHaveLength(existing.length);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...existing].sort());
    // The first page's total is the count when the scan started; later pages carry none (spec, cursor rule 5).
    expect(pages[0].meta.total).toBe(25);
    expect(pages.slice(1).map((p) => p.meta.total)).toEqual(pages.slice(1).map(() => undefined));
    expect((await page()).meta.total).toBe(30);
  });

  it('answers INTERNAL_ERROR with retry-after when the replica stops under a read it is running, and the repeat is answered', { timeout: 180_000 }, async () => {
    const token = await newKey('cut-off', '60');
    const contract = new ContractChecker((await (await fetch(`${state.balancerUrl}/v1/openapi.json`)).json()) as OpenApiDocument);
    // An ACCESS EXCLUSIVE lock taken on the primary is replayed on the standby, whose readers of
    // events then wait: a read held running on the replica until the replica stops.
    const locker = new pg.Client({ connectionString: state.primaryUrl });
    await locker.connect();
    let answer: { status: number; retryAfter: string | null; body: string };
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
      await waitFor('the lock to reach the replica', async () => (await onReplica<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'events'::regclass AND mode = 'AccessExclusiveLock'`))[0].n > 0);
      const pending = fetch(`${state.balancerUrl}/v1/events?limit=5`, { headers: { authorization: `Bearer ${token}` } }).then(async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() }));
      await waitFor('the read to wait on the replica', async () => (await onReplica<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'quorum' AND wait_event_type = 'Lock'`))[0].n > 0);
      await topology('replica', 'stop');
      answer = await pending;
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
    // The spec's table of codes is closed: a server failure is 500 INTERNAL_ERROR, "repeat with backoff"; retry-after says how long.
    expect(answer.status, answer.body).toBe(500);
    expect(answer.retryAfter).toBe('1');
    expect((JSON.parse(answer.body) as { error: { code: string } }).error.code).toBe('INTERNAL_ERROR');
    contract.check('GET', '/v1/events', answer.status, answer.body);
    // Repeated as the hint says, the read is answered (from the primary while the replica is down).
    const again = await fetch(`${state.balancerUrl}/v1/events?limit=5`, { headers: { authorization: `Bearer ${token}` } });
    expect(again.status, await again.text()).toBe(200);
    await topology('replica', 'start');
  });

  it('keeps answering while an API process is SIGKILLed under writes; every accepted invite is stored', { timeout: 180_000 }, async () => {
    const formFile = join(dir, 'form.json');
    writeFileSync(formFile, JSON.stringify(minimalForm('topology-survey')));
    expect((await runQuorum(['form', 'import', '--company', 'topology', formFile], cliEnv())).code).toBe(0);
    const [form] = await onPrimary<{ id: string }>(`SELECT id FROM forms WHERE slug = 'topology-survey'`);
    const token = await newKey('writer', '10000');
    const contract = new ContractChecker((await (await fetch(`${state.balancerUrl}/v1/openapi.json`)).json()) as OpenApiDocument);

    // Six clients write 60 invites; api1 is killed once 20 are answered. Only requests it held may fail.
    const api1 = state.processes.find((p) => p.name === 'api1')!;
    const answers: { status: number; id: string | null }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < 60) {
          const n = next++;
          const url = `/v1/forms/${form.id}/invites`;
          // HAProxy may close the client's connection when the process behind it dies mid-request: status 0.
          const res = await fetch(`${state.balancerUrl}${url}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ email: `student${n}@topology.test` }),
          }).catch(() => null);
          const body = (await res?.text().catch(() => null)) ?? '';
          const status = body ? res!.status : 0;
          if (status === 201) contract.check('POST', url, status, body);
          answers.push({ status, id: status === 201 ? (JSON.parse(body) as { data: { id: string } }).data.id : null });
          if (answers.length === 20) process.kill(api1.pid, 'SIGKILL');
        }
      }),
    );
    const accepted = answers.filter((a) => a.status === 201).map((a) => a.id!);
    const failed = answers.filter((a) => a.status !== 201);
    expect(failed.length, JSON.stringify(failed)).toBeLessThanOrEqual(6);
    expect(failed.every((a) => a.status === 0 || (a.status >= 502 && a.status <= 504)), JSON.stringify(failed)).toBe(true);
    const stored = (await onPrimary<{ id: string }>('SELECT id FROM invites WHERE form_id = $1', [form.id])).map((row) => row.id);
    expect(accepted.filter((id) => !stored.includes(id))).toEqual([]);
    expect(stored.length).toBeLessThanOrEqual(accepted.length + failed.length);
    expect((await fetch(`${state.balancerUrl}/readyz`)).status).toBe(200);
  });

  it('stops everything with one command, leaving no process', { timeout: 120_000 }, async () => {
    await topology('stop');
    expect(state.processes.map((p) => p.name).sort()).toEqual(['api1', 'api2', 'haproxy', 'redis', 'worker1']);
    expect(state.processes.filter((p) => running(p.pid)).map((p) => p.name)).toEqual([]);
    expect(state.clusters.filter((c) => existsSync(join(c.pgData, 'postmaster.pid'))).map((c) => c.name)).toEqual([]);
    expect((await topology('status')).stderr).toContain('not started');
  });
});
