import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = join(import.meta.dirname);
/** The HTTP side of a feature; everything else (services, jobs, tables) knows nothing of HTTP. */
const HTTP_FILES = /(^|\/)(routes|schemas|plugin|([a-z-]+-)?panel-routes|panel-schemas)\.ts$|\.test\.ts$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('feature boundaries', () => {
  it('services, jobs and tables never import the HTTP layer (src/platform/app)', () => {
    const offenders = sources(FEATURES)
      .filter((file) => !HTTP_FILES.test(relative(FEATURES, file)))
      .filter((file) => /from '(\.\.\/)+platform\/app\//.test(readFileSync(file, 'utf8')))
      .map((file) => relative(FEATURES, file));
    expect(offenders).toEqual([]);
  });
});

/** A feature's folder name, when `path` (relative to src/features) lies inside one. */
const featureOf = (path: string): string | null => (/^([^/]+)\//.exec(path) ?? [])[1] ?? null;

/** Every import, export-from and await import() of `source` that is not type-only, as module specifiers. */
function runtimeSpecifiers(source: string): string[] {
  const statics = [...source.matchAll(/^\s*(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*'([^']+)'/gm)]
    .filter(([, typeKeyword, clause]) => !typeKeyword && !/^\{(\s*type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,?)*\s*\}$/.test(clause.trim()))
    .map((match) => match[3]);
  const bare = [...source.matchAll(/^\s*import\s+'([^']+)'/gm)].map((match) => match[1]);
  const dynamic = [...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((match) => match[1]);
  return [...statics, ...bare, ...dynamic];
}

/** Feature → the features it imports at run time (static or deferred; type-only imports vanish when compiled). */
function featureGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(FEATURES).filter((path) => !path.endsWith('.test.ts'))) {
    const from = featureOf(relative(FEATURES, file));
    if (!from) continue;
    for (const specifier of runtimeSpecifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const to = featureOf(relative(FEATURES, join(dirname(file), specifier)));
      if (to && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** The groups of features that import one another in a loop (Tarjan's strongly connected components of two or more), sorted. */
function featureLoops(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do group.push((member = stack.pop()!));
    while (member !== node);
    if (group.length > 1) loops.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return loops.sort((a, b) => a[0].localeCompare(b[0]));
}

describe('feature dependencies', () => {
  it('form no loop between features (through their index.ts or deferred)', () => {
    expect(featureLoops(featureGraph())).toEqual([]);
  });

  it('are read from the sources: a loop through a deferred import counts, a type-only one does not', () => {
    const specifiers = runtimeSpecifiers(
      [
        "import type { A } from '../a/index.js';",
        "import { type B, type C as D } from '../b/index.js';",
        "export { type E } from '../e/index.js';",
        "import { f, type G } from '../f/index.js';",
        "export {\n  h,\n} from '../h/index.js';",
        "const { i } = await import('../i/index.js');",
      ].join('\n'),
    );
    expect(specifiers).toEqual(['../f/index.js', '../h/index.js', '../i/index.js']);
    expect(featureLoops(new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]))).toEqual([['a', 'b', 'c']]);
  });
});
