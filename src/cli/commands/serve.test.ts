import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, sleep, spawnedServiceSuite } from '../../../test/spawned-service.js';

// What `npm start` runs: the bundled binary `npm run build` made (scripts/build-cli.mjs), so the
// assets it finds beside its modules (migrations, demo data, the panel, the page script) are proven too.
const MAIN = join(process.cwd(), 'dist', 'cli', 'main.js');

const suite = spawnedServiceSuite();

describe('quorum start on a first start', () => {
  it('prints what the demo seeding makes, and /readyz is 503 with the reason until the demo and its key exist', { timeout: 300_000 }, async () => {
    const port = await freePort();
    const child = suite.track(spawn(process.execPath, [MAIN, 'start'], {
      env: { ...process.env, DATABASE_URL: suite.databaseUrl(), QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-start-')), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }));
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    child.stdout!.resume();

    // Poll /readyz from the moment the server listens until the banner with the key is printed.
    const answers: { status: number; body: unknown }[] = [];
    while (!stderr.includes('API key (shown once')) {
      expect(child.exitCode, stderr).toBeNull();
      const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
      if (res) answers.push({ status: res.status, body: await res.json() });
      await sleep(250);
    }
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ success: true, data: { status: 'ready' } });

    // Not ready while seeding; ready only at the very end (the banner and the 200 race through two pipes).
    expect(answers.map((a) => a.status).join(',')).toMatch(/^503(,503)*(,200)*$/);
    for (const answer of answers.filter((a) => a.status === 503)) {
      expect(answer.body).toEqual({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: 'Starting: preparing the demo data.', details: { pending: ['preparing the demo data'] } },
      });
    }

    // Progress while seeding, with counts, before the banner.
    const progress = stderr.slice(0, stderr.indexOf('API key (shown once')).split('\n').filter((line) => line.startsWith('demo: '));
    expect(progress[0]).toMatch(/^demo: creating company "demo" and its data/);
    expect(progress).toContain('demo: 3,000 responses (1,000/1,000/1,000)');
    expect(progress.some((line) => /^demo: 3 forms, \d+ entities$/.test(line))).toBe(true);
    expect(progress.some((line) => /\d+ people, 1 class group, 600 enrollments$/.test(line))).toBe(true);
    expect(progress).toContain('demo: 6 invites');
    expect(progress.some((line) => /^demo: \d+ responses, \d+ treatment cases$/.test(line))).toBe(true);
    expect(progress.some((line) => /\d+ goal rules?$/.test(line))).toBe(true);

    // The panel that `npm run build` made (dist/panel) is what the started service serves, script included.
    const panel = await fetch(`http://127.0.0.1:${port}/panel/`);
    expect(panel.status).toBe(200);
    const html = await panel.text();
    const script = /src="(\/panel\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const asset = await fetch(`http://127.0.0.1:${port}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);

    // The docs, the OpenAPI document and the printed public link with its page script.
    expect((await fetch(`http://127.0.0.1:${port}/docs`)).status).toBe(200);
    const openapi = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    const publicLink = /Answer a form:\s+(\S+)/.exec(stderr)?.[1];
    expect(publicLink, stderr).toBeDefined();
    const page = await fetch(publicLink!);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    const pageScript = /<script src="([^"]+)"/.exec(pageHtml)?.[1];
    expect(pageScript, pageHtml).toBeDefined();
    expect((await fetch(new URL(pageScript!, publicLink)).then((r) => r.status))).toBe(200);
  });
});

describe('quorum api on SIGTERM with SHUTDOWN_DRAIN_MS', () => {
  it('answers /readyz 503 while it drains, still serving, then exits 0', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const api = spawn(process.execPath, [MAIN, 'api'], {
      env: {
        ...process.env,
        DATABASE_URL: suite.databaseUrl(),
        QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-api-')),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // Long enough that the probes below land inside it on a loaded machine.
        SHUTDOWN_DRAIN_MS: '10000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => api.once('exit', resolve));
    let stderr = '';
    api.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    try {
      while ((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status !== 200) {
        expect(api.exitCode, stderr).toBeNull();
        await sleep(250);
      }
      api.kill('SIGTERM');
      while (!stderr.includes('draining for 10000 ms')) await sleep(50);

      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE', details: { pending: ['draining before shutdown'] } } });
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(await exited).toBe(0);
    } finally {
      if (api.exitCode === null) api.kill('SIGKILL');
    }
  });
});
