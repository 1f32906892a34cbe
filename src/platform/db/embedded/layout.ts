import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { bundledBinDir } from './binaries.js';
import { EmbeddedPostgresError, exists } from './files.js';

const SERVICE_USER = 'quorum-pg';
/** Where root keeps binaries and clusters its service user could not reach in the project tree. */
const SHARED_ROOT = '/var/lib/quorum';

export interface RunAs {
  uid: number;
  gid: number;
}

/** Where the cluster lives, which binaries serve it, and as whom they run. */
export interface Layout {
  pgData: string;
  binDir: string;
  runAs?: RunAs;
}

/** `<dataDir>/pg`, run as the caller; as root (Postgres refuses it) run by a service user, relocated if it cannot reach it. */
export async function resolveLayout(dataDir: string, log: (line: string) => void): Promise<Layout> {
  const local = path.join(dataDir, 'pg');
  const bundled = await bundledBinDir();
  if (process.getuid?.() !== 0) return { pgData: local, binDir: bundled };

  // Binaries and data are placed independently: a project under a 0700 folder may still keep its data
  // in a reachable data directory, and vice versa.
  const runAs = ensureServiceUser();
  const binDir = serviceUserCanEnter(runAs, path.join(bundled, 'postgres')) ? bundled : await installSharedBinaries(bundled);
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

/** The system user Postgres runs as when we are root (created once); also used by scripts/topology. */
export function ensureServiceUser(): RunAs {
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
export function serviceUserCanEnter(runAs: RunAs, target: string): boolean {
  return spawnSync('/bin/sh', ['-c', 'test -x "$0"', target], { ...runAs, cwd: '/' }).status === 0;
}

async function readPointer(file: string): Promise<string | null> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return text.trim() || null;
}

/** Copies the bundled binaries once to a root-owned, world-readable place; returns their bin directory. */
async function installSharedBinaries(bundled: string): Promise<string> {
  const nativeDir = path.dirname(bundled);
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
