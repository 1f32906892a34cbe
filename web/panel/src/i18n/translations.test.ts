/** Every visible string exists in the three languages: same keys everywhere, every key the code asks for present. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

describe('panel translations', () => {
  it.each([
    ['pt-BR', ptBR],
    ['es', es],
  ])('%s has exactly the keys of en, none empty', (_language, translation) => {
    expect(keys(translation).sort()).toEqual(keys(en).sort());
    for (const key of keys(translation)) expect(key.split('.').reduce<any>((node, part) => node[part], translation), key).not.toBe('');
  });

  it('every literal key the code translates exists in en (area labels included)', () => {
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z_.-]+)'/g)) used.add(match[1]);
      for (const match of text.matchAll(/label: '([a-zA-Z]+\.[a-zA-Z_]+)'/g)) used.add(match[1]);
    }
    expect(used.size).toBeGreaterThan(40);
    const known = new Set(keys(en));
    expect([...used].filter((key) => !known.has(key))).toEqual([]);
  });
});
