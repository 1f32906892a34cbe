import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ensureServiceUser, type Layout } from '../../src/platform/db/embedded/layout.js';
import { haproxyConfig } from './haproxy.js';
import { haproxyBinary, postgresBinDir, redisBinary } from './install.js';
import { baseBackup, clusterLayout, createDatabase, DATABASE, initPrimary, startCluster, stopCluster, urlFor } from './postgres.js';
import { freePort, listening, running, spawnDetached, stopPid, waitFor } from './processes.js';
import { quorumEnv, runQuorum, startQuorum } from './quorum-processes.js';
import { readState, stateFile, writeState, type TopologyState } from './state.js';

export interface StartOptions {
  dir: string;
  apis: number;
  workers: number;
  /** Run quorum from src/ through tsx instead of dist/. */
  source: boolean;
  /** More settings for every quorum process (SMTP_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS, ...). */
  env?: Record<string, string>;
  log: (line: string) => void;
}

/** How long an API process answers /readyz 503 after SIGTERM: four of HAProxy's 500 ms checks. */
const DRAIN_MS = 2_000;

const ready = (url: string) => async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200;

/**
 * Starts, on this machine and without containers: a primary Postgres and a streaming standby made by
 * pg_basebackup, Redis, `apis` API processes behind HAProxy and `workers` worker processes. On a
 * failure half-way, what was started is stopped again.
 */
export async function startTopology(opts: StartOptions): Promise<TopologyState> {
  const dir = path.resolve(opts.dir);
  if (await readState(dir)) throw new Error(`a topology was started from ${dir} (${stateFile(dir)}): stop it first`);
  const logs = path.join(dir, 'logs');
  await fs.mkdir(logs, { recursive: true });
  const log = (name: string) => path.join(logs, `${name}.log`);

  const binDir = postgresBinDir();
  const haproxy = haproxyBinary();
  const redis = redisBinary();
  const password = randomBytes(18).toString('base64url');
  const [primaryPort, replicaPort, redisPort, balancerPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const apiPorts = await Promise.all(Array.from({ length: opts.apis }, () => freePort()));
  const state: TopologyState = {
    dir,
    primaryUrl: urlFor(primaryPort, password, DATABASE),
    replicaUrl: urlFor(replicaPort, password, DATABASE),
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    balancerUrl: `http://127.0.0.1:${balancerPort}`,
    apiUrls: apiPorts.map((port) => `http://127.0.0.1:${port}`),
    settings: {},
    source: opts.source,
    clusters: [],
    processes: [],
  };
  await writeState(state);
  try {
    opts.log(`primary PostgreSQL on ${primaryPort} (${binDir})`);
    const primary = await clusterLayout(dir, 'primary', binDir);
    await initPrimary(primary, password, log('primary'));
    await startCluster(primary, primaryPort, log('primary'));
    state.clusters.push({ name: 'primary', pgData: primary.pgData, port: primaryPort, binDir });
    await writeState(state);
    await createDatabase(urlFor(primaryPort, password, 'postgres'));

    opts.log(`streaming replica on ${replicaPort} (pg_basebackup)`);
    const replica = await clusterLayout(dir, 'replica', binDir);
    await baseBackup(replica, urlFor(primaryPort, password, 'postgres'), log('replica'));
    await startCluster(replica, replicaPort, log('replica'));
    state.clusters.push({ name: 'replica', pgData: replica.pgData, port: replicaPort, binDir });
    await writeState(state);

    opts.log(`Redis on ${redisPort}`);
    const redisArgs = ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    state.processes.push({ name: 'redis', pid: await spawnDetached(redis, redisArgs, { logFile: log('redis') }) });
    await writeState(state);
    await waitFor('Redis to listen', () => listening(redisPort));

    const shared = {
      ...opts.env,
      DATABASE_URL: state.primaryUrl,
      READ_DATABASE_URL: state.replicaUrl,
      REDIS_URL: state.redisUrl,
      SECRET_KEY: randomBytes(32).toString('base64url'),
      QUORUM_DATA_DIR: path.join(dir, 'data'),
      HOST: '127.0.0.1',
      // Client addresses (the failed-login limit) come from HAProxy's X-Forwarded-For.
      TRUST_PROXY: '127.0.0.1',
      PUBLIC_API_URL: `${state.balancerUrl}/v1`,
      PUBLIC_FORM_URL: `${state.balancerUrl}/i`,
      PUBLIC_PANEL_URL: `${state.balancerUrl}/panel`,
    };
    state.settings = shared;
    await writeState(state);
    opts.log('migrating the primary');
    await runQuorum(opts.source, ['migrate'], quorumEnv(shared));

    for (let i = 1; i <= opts.apis; i++) {
      state.processes.push({ name: `api${i}`, pid: await spawnQuorum(state, `api${i}`, logs) });
      await writeState(state);
    }
    for (let i = 1; i <= opts.workers; i++) {
      state.processes.push({ name: `worker${i}`, pid: await spawnQuorum(state, `worker${i}`, logs) });
      await writeState(state);
    }
    for (const url of state.apiUrls) await waitFor(`${url}/readyz (see ${logs})`, ready(url), 120_000);

    opts.log(`HAProxy on ${balancerPort} in front of ${opts.apis} API processes; ${opts.workers} worker(s)`);
    const config = path.join(dir, 'haproxy.cfg');
    await fs.writeFile(config, haproxyConfig({ port: balancerPort, apiPorts }));
    state.processes.push({ name: 'haproxy', pid: await spawnDetached(haproxy, ['-db', '-f', config], { logFile: log('haproxy') }) });
    await writeState(state);
    await waitFor('HAProxy to answer /readyz', ready(state.balancerUrl));
    return state;
  } catch (err) {
    await stopTopology(dir, opts.log).catch(() => undefined);
    throw err;
  }
}

/** Starts the quorum process `name` (api1, worker2, ...) as `start` did: its port, the shared settings. */
function spawnQuorum(state: TopologyState, name: string, logs: string): Promise<number> {
  const api = /^api(\d+)$/.exec(name);
  const env = api
    ? quorumEnv({ ...state.settings, PORT: new URL(state.apiUrls[Number(api[1]) - 1]).port, SHUTDOWN_DRAIN_MS: String(DRAIN_MS) })
    : quorumEnv(state.settings);
  return startQuorum(state.source, api ? 'api' : 'worker', env, path.join(logs, `${name}.log`));
}

/**
 * Starts again a quorum process of the topology that is gone (a fault injected: SIGKILL), on the
 * same port with the same settings; an API process is back once it answers /readyz.
 */
export async function restartProcess(dirOption: string, name: string): Promise<number> {
  const dir = path.resolve(dirOption);
  const state = await readState(dir);
  const entry = state?.processes.find((p) => p.name === name && /^(api|worker)\d+$/.test(p.name));
  if (!state || !entry) throw new Error(`no quorum process ${name} started from ${dir}`);
  if (running(entry.pid)) throw new Error(`${name} (pid ${entry.pid}) still runs`);
  entry.pid = await spawnQuorum(state, name, path.join(dir, 'logs'));
  await writeState(state);
  const api = /^api(\d+)$/.exec(name);
  if (api) await waitFor(`${name} /readyz`, ready(state.apiUrls[Number(api[1]) - 1]), 120_000);
  return entry.pid;
}

/**
 * Stops what `start` recorded: HAProxy first, the API processes (each drains), the workers, Redis,
 * then the replica and the primary with pg_ctl. Processes are stopped by their pid only.
 */
export async function stopTopology(dirOption: string, log: (line: string) => void): Promise<TopologyState | null> {
  const dir = path.resolve(dirOption);
  const state = await readState(dir);
  if (!state) return null;
  const order = [...state.processes].reverse();
  const first = order.filter((p) => p.name === 'haproxy');
  const quorum = order.filter((p) => p.name !== 'haproxy' && p.name !== 'redis');
  for (const p of first) await stopPid(p.pid);
  // The API processes drain side by side: their 503s overlap instead of adding up.
  await Promise.all(quorum.map((p) => stopPid(p.pid)));
  for (const p of order.filter((p) => p.name === 'redis')) await stopPid(p.pid);
  for (const cluster of [...state.clusters].reverse()) {
    log(`stopping ${cluster.name} PostgreSQL`);
    const layout = clusterLayoutOf(cluster);
    await stopCluster(layout, path.join(dir, 'logs', `${cluster.name}.log`));
  }
  // Clusters moved under /var/lib/quorum (the service user could not reach --dir) go with the
  // topology, as they would inside --dir: a next start makes them anew anyway.
  const moved = new Set(state.clusters.map((c) => path.dirname(c.pgData)).filter((base) => base !== dir && path.basename(base).startsWith('topology-')));
  for (const base of moved) await fs.rm(base, { recursive: true, force: true });
  await fs.rm(stateFile(dir), { force: true });
  return state;
}

/** Stops or starts the replica alone (a fault to inject: reads then fall back to the primary). */
export async function switchReplica(dirOption: string, on: boolean): Promise<void> {
  const dir = path.resolve(dirOption);
  const replica = (await readState(dir))?.clusters.find((cluster) => cluster.name === 'replica');
  if (!replica) throw new Error(`no replica started from ${dir}`);
  const logFile = path.join(dir, 'logs', 'replica.log');
  if (on) await startCluster(clusterLayoutOf(replica), replica.port, logFile);
  else await stopCluster(clusterLayoutOf(replica), logFile);
}

function clusterLayoutOf(cluster: TopologyState['clusters'][number]): Layout {
  return { pgData: cluster.pgData, binDir: cluster.binDir, runAs: process.getuid?.() === 0 ? ensureServiceUser() : undefined };
}
