import { spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../../src/platform/db/embedded/files.js';

/** Alive and not a zombie: an orphan's exit is reaped by whoever is pid 1, which in a container may never do it. */
export function running(pid: number): boolean {
  if (!isAlive(pid)) return false;
  const stat = (() => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return null;
    }
  })();
  return stat === null || stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** A port free right now on the loopback (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a long-running process in its own process group, detached from this one (the topology
 * outlives `start`), its output appended to `logFile`.
 */
export async function spawnDetached(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; logFile: string; cwd?: string }): Promise<number> {
  const out = await fs.open(opts.logFile, 'a', 0o600);
  try {
    const child = spawn(command, args, { stdio: ['ignore', out.fd, out.fd], detached: true, env: opts.env ?? process.env, cwd: opts.cwd });
    const pid = await new Promise<number>((resolve, reject) => {
      child.once('spawn', () => resolve(child.pid!));
      child.once('error', reject);
    });
    child.unref();
    return pid;
  } finally {
    await out.close();
  }
}

/** Polls until `check` holds; throws naming `what` (and the log to read) after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(100)) {
    if (await check()) return;
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}

/** Whether something accepts TCP connections on the loopback port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** SIGTERM (the process drains), then SIGKILL if it is still there after `graceMs`. */
export async function stopPid(pid: number, graceMs = 15_000): Promise<void> {
  if (!running(pid)) return;
  process.kill(pid, 'SIGTERM');
  await waitFor(`process ${pid} to exit`, () => !running(pid), graceMs).catch(() => {
    if (running(pid)) process.kill(pid, 'SIGKILL');
  });
  await waitFor(`process ${pid} to exit after SIGKILL`, () => !running(pid), 5_000);
}
