import { readFileSync } from 'node:fs';

/** Form definitions shared by the tests. */

/** The documented example with every question type (src/features/forms/examples). */
export function allQuestionTypesExample(): any {
  return JSON.parse(readFileSync(new URL('../src/features/forms/examples/all-question-types.json', import.meta.url), 'utf8'));
}

/** The smallest importable form: one section, one text question (extra fields override). */
export function minimalForm(slug: string, extra: Record<string, unknown> = {}) {
  return { slug, name: `Form ${slug}`, sections: [{ key: 's', name: 'S', questions: [{ key: 'q', name: 'Q', type: 'TEXT' }] }], ...extra };
}
