import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = join(import.meta.dirname);
/** The HTTP side of a feature; everything else (services, jobs, tables) knows nothing of HTTP. */
const HTTP_FILES = /(^|\/)(routes|schemas|plugin|panel-routes|panel-schemas)\.ts$|\.test\.ts$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('feature boundaries', () => {
  it('services, jobs and tables never import the HTTP layer (src/app)', () => {
    const offenders = sources(FEATURES)
      .filter((file) => !HTTP_FILES.test(relative(FEATURES, file)))
      .filter((file) => /from '(\.\.\/)+app\//.test(readFileSync(file, 'utf8')))
      .map((file) => relative(FEATURES, file));
    expect(offenders).toEqual([]);
  });
});
