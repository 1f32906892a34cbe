import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded on its first use instead of with its importer: for a heavy package that a
 * module every context reaches needs only on a rare path (bench/README.md, cli-start). Its
 * CommonJS build: `require` is synchronous, so the callers stay synchronous.
 */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
