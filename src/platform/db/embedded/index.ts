import { promises as fs } from 'node:fs';
import path from 'node:path';
import { configureAuth, needsAuthSetup, readOrCreatePassword } from './auth.js';
import { initCluster } from './cluster.js';
import { EmbeddedPostgresError, exists, isAlive } from './files.js';
import { resolveLayout } from './layout.js';
import { withLockFile } from './lock-file.js';
import { findRunningServer, type RunningServer } from './running-server.js';
import { launch, terminatePid } from './server-process.js';

export { EmbeddedPostgresError } from './files.js';

export interface EmbeddedPostgres {
  /** postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** true when this process started (or adopted) the server and must stop it */
  owned: boolean;
  /** Stops the server if owned (fast shutdown, waits for exit); no-op otherwise. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  log?: (line: string) => void;
  /** Trade durability for speed (fsync, synchronous_commit and full_page_writes off): tests only. */
  fast?: boolean;
  /** false: a missing cluster is an error (NoClusterError) instead of being initialised. Default true. */
  create?: boolean;
  /** The owned server died under us: the caller must stop (or restart) rather than answer with a dead database. */
  onUnexpectedExit?: (reason: string) => void;
}

/** No cluster under the data directory, and the caller may not create one. */
export class NoClusterError extends EmbeddedPostgresError {}

const ADOPTED_POLL_MS = 1_000;

/** Start the embedded server under `<dataDir>/pg`, or connect to the one already running there. */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  const log = opts.log ?? (() => undefined);
  await fs.mkdir(dataDir, { recursive: true });
  const logFile = path.join(dataDir, 'postgres.log');
  const ownerFile = path.join(dataDir, 'pg-owner');
  // One process at a time decides whether to initialise, start or join: two must never both run initdb.
  return withLockFile(path.join(dataDir, 'pg.lock'), async () => {
    const layout = await resolveLayout(dataDir, log);
    const hasCluster = await exists(path.join(layout.pgData, 'PG_VERSION'));
    if (!hasCluster && opts.create === false) throw new NoClusterError(`no database cluster in ${layout.pgData}`);
    const { password, created } = await readOrCreatePassword(dataDir);
    const url = (port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;

    const running = await findRunningServer(layout.pgData, logFile, url, log);
    if (running) {
      if (await ownerIsAlive(ownerFile)) return { url: url(running.port), port: running.port, owned: false, stop: async () => undefined };
      log(`embedded PostgreSQL: taking over the server (pid ${running.pid}) left running by a process that has exited`);
      await fs.writeFile(ownerFile, `${process.pid}\n`);
      return adopt(running, url(running.port), opts.onUnexpectedExit);
    }
    if (!hasCluster) await initCluster(layout, password, logFile, log);
    else if (await needsAuthSetup(layout.pgData, created)) {
      log(`embedded PostgreSQL: switching ${layout.pgData} to password authentication (pg-password)`);
      await configureAuth(layout, layout.pgData, password, logFile);
    }
    const server = await launch(layout, logFile, { fast: opts.fast ?? false, connectUrl: url, onUnexpectedExit: opts.onUnexpectedExit });
    await fs.writeFile(ownerFile, `${process.pid}\n`);
    return { url: url(server.port), port: server.port, owned: true, stop: server.stop };
  });
}

/** Whether the process that started the running server is still alive (then we only join it). */
async function ownerIsAlive(ownerFile: string): Promise<boolean> {
  const pid = Number((await fs.readFile(ownerFile, 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}

/** Owns a server whose starter died (SIGKILL): stopped on stop() or exit, watched like a child. */
function adopt(server: RunningServer, url: string, onUnexpectedExit: EmbeddedOptions['onUnexpectedExit']): EmbeddedPostgres {
  let stopping = false;
  const watch = setInterval(() => {
    if (isAlive(server.pid)) return;
    clearInterval(watch);
    if (!stopping) onUnexpectedExit?.(`PostgreSQL (pid ${server.pid}) exited`);
  }, ADOPTED_POLL_MS);
  watch.unref();
  const stopOnExit = (): void => {
    try {
      process.kill(server.pid, 'SIGINT');
    } catch {
      // already gone
    }
  };
  process.once('exit', stopOnExit);
  return {
    url,
    port: server.port,
    owned: true,
    async stop() {
      stopping = true;
      clearInterval(watch);
      process.removeListener('exit', stopOnExit);
      await terminatePid(server.pid);
    },
  };
}
