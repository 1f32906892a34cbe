import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { spawnDetached } from './processes.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** `quorum` as built (dist/cli/main.js, what `npm ci` leaves), or from source through tsx (`--source`). */
export function quorumCommand(source: boolean): { command: string; args: string[] } {
  return source
    ? { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'main.ts')] }
    : { command: process.execPath, args: [path.join(ROOT, 'dist', 'cli', 'main.js')] };
}

/** The environment every quorum process of the topology shares; nothing of the caller's database settings leaks in. */
export function quorumEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'READ_DATABASE_URL', 'TEST_DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'SECRET_KEY', 'QUORUM_DATA_DIR']) delete env[name];
  return { ...env, ...settings };
}

export async function runQuorum(source: boolean, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { command, args: base } = quorumCommand(source);
  const { stdout } = await promisify(execFile)(command, [...base, ...args], { env, cwd: ROOT });
  return stdout;
}

export function startQuorum(source: boolean, tier: 'api' | 'worker', env: NodeJS.ProcessEnv, logFile: string): Promise<number> {
  const { command, args } = quorumCommand(source);
  return spawnDetached(command, [...args, tier], { env, logFile, cwd: ROOT });
}
