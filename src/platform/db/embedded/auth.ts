import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { EmbeddedPostgresError, fileSize, logTail } from './files.js';
import type { Layout } from './layout.js';
import { exitOf, spawnLogged } from './server-process.js';

const SCRAM_ITERATIONS = 4096;

/** Only password logins on loopback: any local user could otherwise connect as superuser. */
const HBA_CONF = `# Written by Quorum's embedded launcher: 127.0.0.1 only, SCRAM with the password kept in pg-password (0600)
# beside the data directory. Rewritten on every start that finds it different.
host all all 127.0.0.1/32 scram-sha-256
`;

/** `<dataDir>/pg-password`: created 0600 on first use, readable only by the operator running Quorum. */
export async function readOrCreatePassword(dataDir: string): Promise<{ password: string; created: boolean }> {
  const file = path.join(dataDir, 'pg-password');
  const existing = (await fs.readFile(file, 'utf8').catch(() => '')).trim();
  if (existing) return { password: existing, created: false };
  const password = randomBytes(32).toString('base64url');
  try {
    await fs.writeFile(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
    return { password, created: true };
  } catch (err) {
    throw new EmbeddedPostgresError(`cannot create ${file}: ${(err as Error).message}`);
  }
}

/** Whether the cluster still trusts local connections (made before SCRAM) or its password was reset. */
export async function needsAuthSetup(pgData: string, passwordCreated: boolean): Promise<boolean> {
  const hba = await fs.readFile(path.join(pgData, 'pg_hba.conf'), 'utf8').catch(() => '');
  return passwordCreated || hba !== HBA_CONF;
}

/**
 * Sets the superuser's SCRAM verifier in single-user mode (no listener, so no moment of trust on the
 * network) and then switches pg_hba.conf to SCRAM. Data is untouched: upgrading an existing cluster is safe.
 */
export async function configureAuth(layout: Layout, pgData: string, password: string, logFile: string): Promise<void> {
  const logStart = await fileSize(logFile);
  const child = await spawnLogged(layout, 'postgres', ['--single', '-D', pgData, 'postgres'], logFile, 'pipe');
  const exited = exitOf(child);
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(`ALTER ROLE postgres PASSWORD '${scramVerifier(password)}'\n`);
  const exit = await exited;
  if (exit.code !== 0) {
    throw new EmbeddedPostgresError(`setting the database password failed (${exit.description}):\n${await logTail(logFile, logStart)}`);
  }
  // Rewriting keeps the file's owner (the service user when run as root).
  await fs.writeFile(path.join(pgData, 'pg_hba.conf'), HBA_CONF);
}

/** The verifier Postgres stores for a SCRAM-SHA-256 password (RFC 5802/7677), so the password itself never reaches it. */
export function scramVerifier(password: string): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, SCRAM_ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest('base64');
  const serverKey = createHmac('sha256', salted).update('Server Key').digest('base64');
  return `SCRAM-SHA-256$${SCRAM_ITERATIONS}:${salt.toString('base64')}$${storedKey}:${serverKey}`;
}
