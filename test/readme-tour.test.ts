import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, sleep, spawnedServiceSuite } from './spawned-service.js';

// The README's shell tour, as a newcomer pastes it: the service `npm start` runs (the bundled
// binary) on a port that is not 3000, the `export BASE=... KEY=...` line its banner printed, then
// every line of the tour's block in one bash, stopping at the first command that fails.
const MAIN = join(process.cwd(), 'dist', 'cli', 'main.js');
const suite = spawnedServiceSuite();

/** The tour's one shell block: the first ```sh block after the "A five-minute tour" heading. */
function tourBlock(): string {
  const readme = readFileSync('README.md', 'utf8');
  const tour = readme.slice(readme.indexOf('## A five-minute tour'));
  const block = /```sh\n([\s\S]*?)```/.exec(tour)?.[1];
  if (!block) throw new Error('README: no sh block under "A five-minute tour"');
  return block;
}

describe('the README tour', () => {
  it('runs line by line against a fresh service on a non-default port, from the banner it printed', { timeout: 600_000 }, async () => {
    const [port, receiverPort] = [await freePort(), await freePort()];
    const env = {
      ...process.env,
      DATABASE_URL: suite.databaseUrl(),
      QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-tour-')),
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // The tour's webhook step restarts the service with this set; here it is set from the start.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    };
    const service = suite.track(spawn(process.execPath, [MAIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let printed = '';
    service.stdout!.on('data', (chunk) => (printed += String(chunk)));
    service.stderr!.on('data', (chunk) => (printed += String(chunk)));
    const exportLine = async () => {
      for (const started = Date.now(); Date.now() - started < 300_000; await sleep(250)) {
        expect(service.exitCode, printed).toBeNull();
        const line = /^\s*(export BASE=\S+ KEY=qk_\S+)\s*$/m.exec(printed)?.[1];
        if (line) return line;
      }
      throw new Error(`no export line in 300 s:\n${printed}`);
    };
    const banner = await exportLine();
    expect(banner).toContain(`BASE=http://localhost:${port} `);

    const block = tourBlock();
    const [first, ...rest] = block.split('\n');
    expect(first).toMatch(/^export BASE=http:\/\/localhost:3000 KEY=qk_\.\.\.\s+# the line npm start printed$/);
    // The one substitution besides the banner: the receiver's port, which a CI machine may have taken.
    const script = ['set -e', banner, ...rest].join('\n').replaceAll(':9000', `:${receiverPort}`).replace('.listen(9000)', `.listen(${receiverPort})`);
    const tour = spawnSync('bash', ['-c', script], { env, encoding: 'utf8', timeout: 420_000 });
    const output = `${tour.stdout}\n${tour.stderr}`;
    expect(tour.status, output).toBe(0);

    // What the tour's comments promise, in what it printed.
    expect(output).toContain('"PAGE_NOT_SUPPORTED"');
    expect(output).toContain('"DROP_THRESHOLD_EXCEEDED"');
    expect(output).toMatch(/suppressed: true/);
    expect(output).toMatch(/"queued":1\b/);
    // Reminders go out on working days only (the demo company skips weekends and Brazil's holidays).
    expect(output).toMatch(/\n[02] invite\(s\) reminded\n/);
    expect(output).toContain('"UNAUTHORIZED"');
    expect(output).toContain('"NOT_FOUND"');
    expect(output).toMatch(/ratelimit-limit: \d+/i);
    expect(output).toMatch(/received \S+ \{"id":"\S+","type":"ping"/);
    expect(output).not.toContain('INTERNAL');
  });
});
