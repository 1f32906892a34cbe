import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EmbeddedPostgresError, fileSize, isAlive, logTail, POLL_MS } from './files.js';
import type { Layout } from './layout.js';
import { servedDataDir } from './running-server.js';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const PORT_ATTEMPTS = 3;

export interface ServerHandle {
  port: number;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  fast: boolean;
  connectUrl: (port: number) => string;
  /** Called when the server exits without stop(): the service must not carry on with a dead database. */
  onUnexpectedExit?: (reason: string) => void;
}

/** Starts the server on a free port, retrying when another process grabbed the port in between. */
export async function launch(layout: Layout, logFile: string, opts: LaunchOptions): Promise<ServerHandle> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServer(layout, logFile, await freePort(), opts);
    } catch (err) {
      const portTaken = err instanceof EmbeddedPostgresError && /could not bind/.test(err.message);
      if (!portTaken || attempt === PORT_ATTEMPTS) throw err;
    }
  }
}

async function startServer(layout: Layout, logFile: string, port: number, opts: LaunchOptions): Promise<ServerHandle> {
  const logStart = await fileSize(logFile);
  const child = await spawnLogged(layout, 'postgres', serverArgs(layout.pgData, port, opts.fast), logFile);
  const exited = exitOf(child);
  let hasExited = false;
  let stopping = false;
  let ready = false;
  void exited.then((exit) => {
    hasExited = true;
    if (ready && !stopping) opts.onUnexpectedExit?.(`PostgreSQL exited (${exit.description}); see ${logFile}`);
  });
  // A node process exiting without stop() must not leave an orphaned server behind.
  const stopOnExit = (): void => void child.kill('SIGINT');
  process.once('exit', stopOnExit);
  void exited.then(() => process.removeListener('exit', stopOnExit));

  const deadline = Date.now() + READY_TIMEOUT_MS;
  // Comparing the data directory guards against another server that owns the port we failed to bind.
  while ((await servedDataDir(opts.connectUrl(port))) !== layout.pgData) {
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
  ready = true;
  return {
    port,
    stop: () => {
      stopping = true;
      return terminate(child, exited);
    },
  };
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

/** The same for a server this process did not spawn (adopted after its owner died). */
export async function terminatePid(pid: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid)) {
    if (Date.now() > deadline) signal('SIGKILL');
    await sleep(POLL_MS);
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
export async function spawnLogged(
  layout: Layout,
  binary: string,
  args: string[],
  logFile: string,
  stdin: 'ignore' | 'pipe' = 'ignore',
): Promise<ChildProcess> {
  // The log may quote statements and connection details: only the operator reads it.
  const out = await fs.open(logFile, 'a', 0o600);
  try {
    await out.chmod(0o600);
    return spawn(path.join(layout.binDir, binary), args, {
      stdio: [stdin, out.fd, out.fd],
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

export interface Exit {
  code: number | null;
  /** "exit code 1", "signal SIGKILL" or the spawn error */
  description: string;
}

/** Settles when the process has exited or failed to spawn. */
export function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, description: signal ? `signal ${signal}` : `exit code ${code}` }));
    child.once('error', (err) => resolve({ code: null, description: err.message }));
  });
}
