import { isDeepStrictEqual } from 'node:util';
import type { FormDefinition } from './definition/index.js';
import type { FormChanges } from './versions-table.js';

/** Every named part of a file by a readable path: settings.<flag>, <section>, <question>, <question>.<choice>. */
function parts(def: FormDefinition | null): Map<string, unknown> {
  const map = new Map<string, unknown>();
  if (!def) return map;
  map.set('name', def.name);
  map.set('description', def.description);
  map.set('thankYou', def.thankYou);
  map.set('dims', def.dims);
  map.set('email', def.email);
  for (const [flag, value] of Object.entries(def.settings)) map.set(`settings.${flag}`, value);
  for (const [language, translation] of Object.entries(def.translations ?? {})) map.set(`translations.${language}`, translation);
  for (const { questions, ...section } of def.sections) {
    map.set(`section ${section.key}`, section);
    for (const { options, rows, columns, ...question } of questions) {
      map.set(`question ${question.key}`, question);
      for (const choice of [...(options ?? []), ...(rows ?? []), ...(columns ?? [])]) map.set(`question ${question.key}.${choice.key}`, choice.name);
    }
  }
  return map;
}

/** What a write changed, for the versions list (who changed what, when). */
export function describeChanges(before: FormDefinition | null, after: FormDefinition): FormChanges {
  const old = parts(before);
  const now = parts(after);
  const same = (key: string) => isDeepStrictEqual(JSON.parse(JSON.stringify(old.get(key) ?? null)), JSON.parse(JSON.stringify(now.get(key) ?? null)));
  const present = (map: Map<string, unknown>, key: string) => map.has(key) && map.get(key) !== undefined;
  const keys = [...new Set([...old.keys(), ...now.keys()])];
  return {
    added: before ? keys.filter((key) => !present(old, key) && present(now, key)) : [],
    removed: keys.filter((key) => present(old, key) && !present(now, key)),
    changed: keys.filter((key) => present(old, key) && present(now, key) && !same(key)),
  };
}
