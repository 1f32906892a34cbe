import { promises as fs } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { EmbeddedPostgresError, isAlive, POLL_MS } from './files.js';

const LOCK_TIMEOUT_MS = 90_000;

/** Runs `fn` holding an exclusive lock file (our pid inside); a lock whose holder is dead is taken over. */
export async function withLockFile<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  await acquireLock(lockFile);
  try {
    return await fn();
  } finally {
    await fs.rm(lockFile, { force: true });
  }
}

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
