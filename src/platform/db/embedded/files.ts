import { promises as fs } from 'node:fs';

export const POLL_MS = 100;
const LOG_TAIL_LINES = 20;

/** The last lines the log gained since `from`, for error messages. */
export async function logTail(logFile: string, from: number): Promise<string> {
  const text = (await fs.readFile(logFile).catch(() => Buffer.alloc(0))).subarray(from).toString('utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return `(nothing in ${logFile})`;
  return `${lines.slice(-LOG_TAIL_LINES).join('\n')}\n(from ${logFile})`;
}

export async function fileSize(file: string): Promise<number> {
  return (await fs.stat(file).catch(() => null))?.size ?? 0;
}

export async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but owned by another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Startup failure; the message carries the reason taken from the server log. */
export class EmbeddedPostgresError extends Error {}
