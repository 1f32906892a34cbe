import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { cloneDatabase } from './harness.js';

export { freePort } from './free-port.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A test file that starts the service as a child process (`quorum start`, `npm run dev`): a fresh
 * database for the file, and whatever child it tracks stopped with SIGTERM (and awaited) before
 * the database is dropped, so a failed test never leaves a server holding it.
 */
export function spawnedServiceSuite(): { databaseUrl: () => string; track: (child: ChildProcess) => ChildProcess } {
  let database: Awaited<ReturnType<typeof cloneDatabase>> | undefined;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    database = await cloneDatabase();
  });
  afterAll(async () => {
    for (const child of children.filter((one) => one.exitCode === null && one.signalCode === null)) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
  });
  return {
    databaseUrl: () => database!.url,
    track: (child) => {
      children.push(child);
      return child;
    },
  };
}
