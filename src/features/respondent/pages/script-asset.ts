/**
 * The page script, served by the process under a content-hashed name so it can be cached for a
 * year. `npm run build` bundles client/respond.ts next to this module (scripts/copy-assets.mjs);
 * run from source (tsx, Vitest) the bundle is made once in memory with esbuild, a dev dependency.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export interface ScriptAsset {
  path: string;
  body: string;
}

export const SCRIPT_BUILD_OPTIONS = { bundle: true, minify: true, format: 'iife', target: 'es2019', platform: 'browser', legalComments: 'none' } as const;

async function bundle(): Promise<string> {
  try {
    return await readFile(new URL('./respond.js', import.meta.url), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const { build } = await import('esbuild');
    const result = await build({ ...SCRIPT_BUILD_OPTIONS, entryPoints: [new URL('./client/respond.ts', import.meta.url).pathname], write: false });
    return result.outputFiles[0].text;
  }
}

let asset: Promise<ScriptAsset> | undefined;

export function scriptAsset(): Promise<ScriptAsset> {
  asset ??= bundle().then((body) => ({ body, path: `/r/assets/respond.${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js` }));
  return asset;
}
