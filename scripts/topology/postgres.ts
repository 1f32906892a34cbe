import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ensureServiceUser, serviceUserCanEnter, type Layout } from '../../src/platform/db/embedded/layout.js';
import { exitOf, spawnLogged } from '../../src/platform/db/embedded/server-process.js';
import { logTail, fileSize } from '../../src/platform/db/embedded/files.js';

export const DATABASE = 'quorum';

/**
 * Where a cluster's data lives and as whom its binaries run: as root, Postgres (which refuses root)
 * runs as the embedded launcher's service user, and the data moves under /var/lib/quorum when that
 * user cannot reach the topology's directory (the embedded launcher's approach).
 */
export async function clusterLayout(dir: string, name: string, binDir: string): Promise<Layout> {
  const runAs = process.getuid?.() === 0 ? ensureServiceUser() : undefined;
  const reachable = !runAs || serviceUserCanEnter(runAs, dir);
  const base = reachable ? dir : path.join('/var/lib/quorum', `topology-${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`);
  const pgData = path.join(base, name);
  await fs.mkdir(base, { recursive: true, mode: 0o755 });
  await fs.rm(pgData, { recursive: true, force: true });
  await fs.mkdir(pgData, { mode: 0o700 });
  if (runAs) await fs.chown(pgData, runAs.uid, runAs.gid);
  return { pgData, binDir, runAs };
}

/** Runs one Postgres binary to its end; a failure carries what it logged. */
async function run(layout: Layout, binary: string, args: string[], logFile: string): Promise<void> {
  const from = await fileSize(logFile);
  const exit = await exitOf(await spawnLogged(layout, binary, args, logFile));
  if (exit.code !== 0) throw new Error(`${binary} failed (${exit.description}):\n${await logTail(logFile, from)}`);
}

/** Settings both clusters share (the standby gets them with the base backup). */
const SERVER_SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  // TCP only: Debian's build puts sockets in /var/run/postgresql, which the service user may not own.
  "unix_socket_directories = ''",
  'wal_level = replica',
  'max_wal_senders = 10',
  'hot_standby = on',
  // A standby that answers scans reports its lag; hot_standby_feedback keeps the primary's vacuum
  // from removing rows a long scan on the standby still reads.
  'hot_standby_feedback = on',
];

/** initdb with SCRAM for every host line (replication included), then the shared settings. */
export async function initPrimary(layout: Layout, password: string, logFile: string): Promise<void> {
  const pwFile = path.join(layout.pgData, '..', `.pw-${process.pid}`);
  await fs.writeFile(pwFile, password, { mode: 0o600 });
  if (layout.runAs) await fs.chown(pwFile, layout.runAs.uid, layout.runAs.gid);
  try {
    await run(layout, 'initdb', ['-D', layout.pgData, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C', '--no-sync'], logFile);
  } finally {
    await fs.rm(pwFile, { force: true });
  }
  await fs.appendFile(path.join(layout.pgData, 'postgresql.conf'), `\n# scripts/topology\n${SERVER_SETTINGS.join('\n')}\n`);
}

/** A physical standby of the primary: pg_basebackup -R writes primary_conninfo and standby.signal. */
export async function baseBackup(layout: Layout, primaryUrl: string, logFile: string): Promise<void> {
  await run(layout, 'pg_basebackup', ['-d', primaryUrl, '-D', layout.pgData, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'], logFile);
}

/** pg_ctl start on `port`, waiting until it accepts connections (a standby: once consistent). */
export async function startCluster(layout: Layout, port: number, logFile: string): Promise<void> {
  await run(layout, 'pg_ctl', ['-D', layout.pgData, '-o', `-p ${port}`, '-w', '-t', '120', 'start'], logFile);
}

/** pg_ctl stop -m fast: sessions are cut, the cluster shuts down cleanly; a stopped one is left alone. */
export async function stopCluster(layout: Layout, logFile: string): Promise<void> {
  try {
    await fs.access(path.join(layout.pgData, 'postmaster.pid'));
  } catch {
    return;
  }
  await run(layout, 'pg_ctl', ['-D', layout.pgData, '-m', 'fast', '-w', '-t', '60', 'stop'], logFile);
}

export async function createDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

export function urlFor(port: number, password: string, database: string): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}
