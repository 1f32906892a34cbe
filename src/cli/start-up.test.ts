import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

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
  it('registers every command without loading the context, the database code or any service', async () => {
    const loaded = [...(await staticClosure('src/cli/main.ts'))];
    const heavy = ['src/platform/context.ts', 'src/features/index.ts', 'src/platform/db/connect.ts', 'src/platform/db/database.ts', 'src/platform/db/migrate.ts'];
    expect(loaded.filter((path) => heavy.includes(path))).toEqual([]);
    expect(loaded.filter(isRouteModule)).toEqual([]);
    expect(loaded.filter((path) => [...SERVER_PACKAGES, 'pg', 'drizzle-orm/node-postgres'].includes(path))).toEqual([]);
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
});
