import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Records every import of a Node built-in, wherever in the graph it happens. */
function nodeBuiltinWatch(found: string[]): Plugin {
  return {
    name: 'node-builtin-watch',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (!NODE_BUILTINS.has(args.path) && !args.path.startsWith('node:')) return undefined;
        found.push(`${args.path} (from ${args.importer})`);
        return { path: args.path, external: true };
      });
    },
  };
}

async function bundle(entryPoint: string) {
  const found: string[] = [];
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
    plugins: [nodeBuiltinWatch(found)],
  });
  return { found, code: result.outputFiles[0].text };
}

describe('the form rules in a browser bundle', () => {
  it('bundles for the browser platform without any Node built-in, transitively', async () => {
    const { found, code } = await bundle(entry);
    expect(found).toEqual([]);
    expect(code).toContain('validateAnswers');
  }, 30_000);

  it('the check fails on a module that pulls a Node built-in through its imports', async () => {
    // ids.ts mints ids with node:crypto: the watch must see it behind the definition's import.
    const { found } = await bundle(fileURLToPath(new URL('../definition/ids.ts', import.meta.url)));
    expect(found.some((line) => line.startsWith('node:crypto'))).toBe(true);
  }, 30_000);
});
