import { promises as fs } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { EmbeddedPostgresError, isAlive, logTail, POLL_MS } from './files.js';

const READY_TIMEOUT_MS = 30_000;

export interface RunningServer {
  pid: number;
  port: number;
}

/**
 * The live server on `pgData`, or null when none runs. A dead pid in postmaster.pid is left for
 * Postgres, which discards such a file on start; a live pid that belongs to some other process (reused after
 * a reboot or container restart) would make Postgres refuse to start, so that file is removed here.
 */
export async function findRunningServer(
  pgData: string,
  logFile: string,
  connectUrl: (port: number) => string,
  log: (line: string) => void,
): Promise<RunningServer | null> {
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
    if ((await servedDataDir(connectUrl(owner.port))) === pgData) return owner;
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

async function readPidFile(file: string): Promise<RunningServer | null> {
  const lines = (await fs.readFile(file, 'utf8').catch(() => '')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && port > 0 ? { pid, port } : null;
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

/** The data directory of the server answering at `url`, or null when none answers. */
export async function servedDataDir(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
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
