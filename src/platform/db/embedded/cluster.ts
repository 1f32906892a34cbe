import { promises as fs } from 'node:fs';
import path from 'node:path';
import { configureAuth } from './auth.js';
import { EmbeddedPostgresError, fileSize, logTail } from './files.js';
import type { Layout } from './layout.js';
import { exitOf, spawnLogged } from './server-process.js';

/** Runs initdb into a staging directory renamed into place, so an interrupted init never looks like a cluster. */
export async function initCluster(layout: Layout, password: string, logFile: string, log: (line: string) => void): Promise<void> {
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
  await configureAuth(layout, staging, password, logFile);
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
    // Replaced by SCRAM (configureAuth) before the server first listens.
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
