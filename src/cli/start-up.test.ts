import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../test/harness.js';

/**
 * What a process loads before its first action: the modules reached from `entry` through static
 * imports only (an `await import()` is where loading is deferred; type-only imports vanish).
 * Packages are kept as their names.
 */
async function staticClosure(entry: string): Promise<Set<string>> {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    outdir: 'unused',
    packages: 'external',
    logLevel: 'silent',
  });
  const reached = new Set([entry]);
  const pending = [entry];
  while (pending.length > 0) {
    for (const imported of metafile.inputs[pending.pop()!]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || reached.has(imported.path)) continue;
      reached.add(imported.path);
      pending.push(imported.path);
    }
  }
  return reached;
}

// The server's weight: none of it may load before a CLI action or with the context.
const SERVER_PACKAGES = ['fastify', '@fastify/swagger', '@fastify/swagger-ui', 'graphile-worker', 'nodemailer', 'ioredis'];
const isRouteModule = (path: string) => /\/(routes|[a-z-]+-page)\.ts$/.test(path) || path === 'src/platform/app/build-app.ts';

describe('CLI start-up (bench/README.md, cli-start)', () => {
  it('registers every command without loading the context, the config, the database code or any service', async () => {
    const loaded = [...(await staticClosure('src/cli/main.ts'))];
    const heavy = ['src/platform/context.ts', 'src/platform/config.ts', 'src/features/index.ts', 'src/platform/db/connect.ts', 'src/platform/db/database.ts', 'src/platform/db/migrate.ts'];
    expect(loaded.filter((path) => heavy.includes(path))).toEqual([]);
    expect(loaded.filter(isRouteModule)).toEqual([]);
    // Option choices come from light vocabulary files (event types included): a table, a parser, a schema or a config module would bring drizzle, csv-parse or TypeBox.
    const packages = loaded.filter((path) => !path.startsWith('src/') && !path.startsWith('node:'));
    expect(packages.filter((name) => name !== 'commander')).toEqual([]);
  });

  it('builds a context without importing routes, pages or the server packages (the registry loads them lazily)', async () => {
    const loaded = [...(await staticClosure('src/platform/context.ts'))];
    expect(loaded).toContain('src/features/index.ts');
    expect(loaded.filter(isRouteModule)).toEqual([]);
    expect(loaded.filter((path) => SERVER_PACKAGES.includes(path))).toEqual([]);
  });

  it('leaves the packages only rare paths of the context use to their first use (lazyRequire)', async () => {
    const loaded = [...(await staticClosure('src/platform/context.ts'))];
    // date-holidays (deadlines, calendar settings) and undici (a sending worker's agent) cost about a third of the context's load.
    expect(loaded.filter((path) => ['date-holidays', 'undici'].includes(path))).toEqual([]);
  });

  it("reads the registry without its schemas, tasks or response consumers' code (each loads when the app, a worker or a response needs it)", async () => {
    const loaded = [...(await staticClosure('src/platform/context.ts'))];
    expect(loaded.filter((path) => /\/(schemas|[a-z-]+\.job)\.ts$/.test(path))).toEqual([]);
    // What those pieces reach: the services' parsers, phone numbers, templates and calendars.
    expect(loaded.filter((path) => ['libphonenumber-js', 'csv-parse', 'csv-parse/sync', 'mustache', 'luxon'].includes(path))).toEqual([]);
  });

  it('checks the configuration and names field errors without a schema library (plain patterns; schema-errors.ts maps validators apart)', async () => {
    const loaded = [...(await staticClosure('src/platform/context.ts'))];
    expect(loaded.filter((path) => path.startsWith('@sinclair/typebox'))).toEqual([]);
  });
});

describe('the bundled binary (scripts/build-cli.mjs, what npm run build writes to dist/cli)', { timeout: 120_000 }, () => {
  // Inside the checkout (test-artifacts/ is ignored): the packages left outside the bundle resolve from its node_modules.
  mkdirSync('test-artifacts', { recursive: true });
  const outdir = mkdtempSync(join(process.cwd(), 'test-artifacts', 'cli-bundle-'));
  let database: Awaited<ReturnType<typeof cloneDatabase>>;
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [join(outdir, 'main.js'), ...args], { env: { ...process.env, DATABASE_URL: database.url, QUORUM_DATA_DIR: outdir } });

  beforeAll(async () => {
    // Assets from src/ (migrations, demo data) stand where dist/ would hold them after copy-assets.
    await promisify(execFile)(process.execPath, ['scripts/build-cli.mjs', outdir, 'src']);
    database = await cloneDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(outdir, { recursive: true, force: true });
  });

  it('runs a command end to end: the help, then a company made and listed through the migrated database', async () => {
    expect((await run(['--help'])).stdout).toContain('Usage: quorum');
    await run(['company', 'create', '--name', 'Bundle School', '--slug', 'bundle-school']);
    const listed = JSON.parse((await run(['--json', 'company', 'list'])).stdout) as { slug: string }[];
    expect(listed.map((company) => company.slug)).toContain('bundle-school');
  });
});
