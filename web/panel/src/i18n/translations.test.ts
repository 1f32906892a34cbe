/** Every visible string exists in the three languages: same keys everywhere, every key the code asks for present. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('..', import.meta.url));
const read = (language: string): object => JSON.parse(readFileSync(join(SRC, 'i18n', `${language}.json`), 'utf8'));
const en = read('en');
const es = read('es');
const ptBR = read('pt-BR');

function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

const LANGUAGES = ['en', 'pt-BR', 'es'];
const PAGES = join(SRC, 'pages');
/** Areas with strings of their own: pages/<area>/strings.ts adds an i18next namespace when its chunk loads. */
const areaNamespaces = new Map(
  readdirSync(PAGES)
    .filter((area) => existsSync(join(PAGES, area, 'strings.ts')))
    .map((area) => [area, /export const \w+ = '([a-z-]+)';/.exec(readFileSync(join(PAGES, area, 'strings.ts'), 'utf8'))![1]]),
);

const areaOf = (file: string) => relative(PAGES, file).split('/')[0];

/**
 * The namespaces a file's literal keys are looked up in: its area's and the shared file. A shared
 * component that translates in its caller's namespace (`useTranslation(ns)`) must find its keys in
 * the namespace of every area that imports it.
 */
function namespacesOf(file: string): string[][] {
  const own = (area: string) => [...(areaNamespaces.has(area) ? [areaNamespaces.get(area)!] : []), 'translation'];
  if (!/useTranslation\(ns\)/.test(readFileSync(file, 'utf8'))) return [own(areaOf(file))];
  const module = relative(SRC, file).replace(/\.tsx?$/, '');
  const importers = sources(PAGES).filter((page) => readFileSync(page, 'utf8').includes(`/${module}'`));
  expect(importers.length, `${module} translates in its callers' namespaces but no page imports it`).toBeGreaterThan(0);
  return importers.map((page) => own(areaOf(page)));
}

describe('panel translations', () => {
  it.each([
    ['pt-BR', ptBR],
    ['es', es],
  ])('%s has exactly the keys of en, none empty', (_language, translation) => {
    expect(keys(translation).sort()).toEqual(keys(en).sort());
    for (const key of keys(translation)) expect(key.split('.').reduce<any>((node, part) => node[part], translation), key).not.toBe('');
  });

  it('every literal key the code translates exists in every language: the shared file, or its area\'s namespace', async () => {
    await i18next.init({ resources: Object.fromEntries(LANGUAGES.map((language) => [language, { translation: read(language) }])) });
    for (const area of areaNamespaces.keys()) await import(pathToFileURL(join(PAGES, area, 'strings.ts')).href);
    const missing: string[] = [];
    let used = 0;
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      const namespaces = namespacesOf(file);
      const keysOfFile = [...text.matchAll(/\bt\(\s*'([a-zA-Z_.-]+)'/g), ...text.matchAll(/label: '([a-zA-Z]+\.[a-zA-Z_]+)'/g)].map((match) => match[1]);
      used += keysOfFile.length;
      for (const key of keysOfFile) {
        // a plural key exists as key_one/key_other: asked with a count
        const exists = (lng: string, ns: string[]) => i18next.exists(key, { lng, ns }) || i18next.exists(key, { lng, ns, count: 2 });
        for (const ns of namespaces) for (const lng of LANGUAGES) if (!exists(lng, ns)) missing.push(`${relative(SRC, file)}: ${key} (${lng}, ${ns[0]})`);
      }
    }
    expect(used).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });
});
