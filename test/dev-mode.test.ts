import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, sleep, spawnedServiceSuite } from './spawned-service.js';

const suite = spawnedServiceSuite();
let child: ChildProcess | null = null;

async function until(what: string, check: () => Promise<boolean>, output: () => string, ms = 120_000): Promise<void> {
  for (const started = Date.now(); !(await check().catch(() => false)); await sleep(250)) {
    expect(child!.exitCode, output()).toBeNull();
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms\n${output()}`);
  }
}

describe('npm run dev', () => {
  it('serves the panel from Vite with hot reload, forwards the API to the service, and restarts the service on a source change', { timeout: 300_000 }, async () => {
    const [port, panelPort] = [await freePort(), await freePort()];
    child = suite.track(spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts', '--no-demo'], {
      env: { ...process.env, DATABASE_URL: suite.databaseUrl(), QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-dev-')), PORT: String(port), PANEL_DEV_PORT: String(panelPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }));
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    child.stderr!.on('data', (chunk) => (output += String(chunk)));
    const panel = `http://127.0.0.1:${panelPort}`;

    // The session route answers through Vite's proxy: the service is up and the panel's origin is Vite's.
    const sessionAnswers = async () => (await fetch(`${panel}/panel/api/session`)).status === 401;
    await until('the service behind the proxy', sessionAnswers, () => output);
    const page = await (await fetch(`${panel}/panel/`)).text();
    expect(page).toContain('/panel/@vite/client');
    expect(page).toContain('/panel/@react-refresh');
    const health = await fetch(`${panel}/healthz`);
    expect(health.status).toBe(200);

    // A source file changes: the service stops and comes back.
    const restarts = () => output.split('SIGTERM received').length - 1;
    expect(restarts()).toBe(0);
    const now = new Date();
    utimesSync('src/platform/config.ts', now, now);
    await until('the restart', async () => restarts() === 1, () => output, 60_000);
    await until('the service after its restart', sessionAnswers, () => output);

    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
