import { describe, expect, it } from 'vitest';
import { exportFormDefinition, missingTranslations, resolveFormDefinition, translateForm, validateFormDefinition } from './index.js';
import { offeredLanguages } from './translate.js';

/** A form in English with a complete pt-BR translation (piping included) and an incomplete es one. */
function translated(extra: Record<string, unknown> = {}) {
  return {
    slug: 'pulse',
    name: 'Pulse',
    description: 'How was the week?',
    thankYou: 'Thanks!',
    settings: { language: 'en' },
    sections: [
      { key: 'one', name: 'First', questions: [{ key: 'mood', name: 'Mood', type: 'RADIO', options: [{ key: 'good', name: 'Good' }, { key: 'bad', name: 'Bad' }] }] },
      {
        key: 'two',
        name: 'Then',
        description: 'Why {{answer.mood}}?',
        questions: [
          { key: 'grid', name: 'Rate', type: 'MATRIX', rows: [{ key: 'r', name: 'Row' }], columns: [{ key: 'c', name: 'Col' }] },
          { key: 'why', name: 'Why?', description: 'A word', type: 'TEXT' },
        ],
      },
    ],
    translations: {
      'pt-BR': {
        name: 'Pulso',
        description: 'Como foi a semana?',
        thankYou: 'Obrigado!',
        sections: { one: { name: 'Primeira' }, two: { name: 'Depois', description: 'Por que {{answer.mood}}?' } },
        questions: {
          mood: { name: 'Humor', options: { good: 'Bom', bad: 'Ruim' } },
          grid: { name: 'Avalie', rows: { r: 'Linha' }, columns: { c: 'Coluna' } },
          why: { name: 'Por quê?', description: 'Uma palavra' },
        },
      },
      es: { name: 'Pulso', questions: { mood: { name: 'Ánimo' } } },
    },
    ...extra,
  };
}

const errorsOf = (input: unknown) => {
  const result = validateFormDefinition(input);
  return result.ok ? [] : result.errors.map(({ path, code }) => ({ path, code }));
};

describe('translations in a form definition', () => {
  it('accepts translations keyed by the file keys, a complete one and an incomplete one', () => {
    expect(errorsOf(translated())).toEqual([]);
  });

  it('refuses a language outside en, pt-BR and es, and the form own language', () => {
    const input = translated();
    Object.assign(input.translations, { fr: { name: 'Pouls' }, en: { name: 'Pulse again' } });
    expect(errorsOf(input)).toEqual([
      { path: 'translations.fr', code: 'invalid_value' },
      { path: 'translations.en', code: 'invalid_value' },
    ]);
  });

  it('reserves the switch query parameter: no hidden field may be named lang', () => {
    expect(errorsOf(translated({ hiddenFields: ['lang'] }))).toEqual([{ path: 'hiddenFields[0]', code: 'invalid_value' }]);
  });

  it('needs the language of the form own texts once it has translations', () => {
    expect(errorsOf(translated({ settings: {} }))).toEqual([{ path: 'settings.language', code: 'required' }]);
  });

  it('refuses unknown section, question, option, row and column keys on their paths, and unknown properties', () => {
    const input = translated();
    input.translations.es = {
      name: 'Pulso',
      sections: { three: { name: 'Tres' } },
      questions: { nope: { name: 'No' }, mood: { name: 'Ánimo', options: { meh: 'Así así' } }, grid: { name: 'Valore', rows: { x: 'X' }, columns: { y: 'Y' } } },
      footer: 'x',
    } as never;
    expect(errorsOf(input)).toEqual(expect.arrayContaining([
      { path: 'translations.es.footer', code: 'unknown_field' },
      { path: 'translations.es.sections.three', code: 'unknown_reference' },
      { path: 'translations.es.questions.nope', code: 'unknown_reference' },
      { path: 'translations.es.questions.mood.options.meh', code: 'unknown_reference' },
      { path: 'translations.es.questions.grid.rows.x', code: 'unknown_reference' },
      { path: 'translations.es.questions.grid.columns.y', code: 'unknown_reference' },
    ]));
    expect(errorsOf(input)).toHaveLength(6);
  });

  it('bounds each text like the one it translates, refuses blanks and texts the form lacks', () => {
    const input = translated();
    input.translations.es = {
      name: 'x'.repeat(201),
      thankYou: ' ',
      sections: { one: { name: 'Primera', description: 'La forma no tiene' } },
      questions: { mood: { name: 'q'.repeat(2001), options: { good: 'o'.repeat(501) } }, why: { description: 'd'.repeat(5001) } },
    } as never;
    expect(errorsOf(input)).toEqual(expect.arrayContaining([
      { path: 'translations.es.name', code: 'too_long' },
      { path: 'translations.es.thankYou', code: 'required' },
      { path: 'translations.es.sections.one.description', code: 'not_applicable' },
      { path: 'translations.es.questions.mood.name', code: 'too_long' },
      { path: 'translations.es.questions.mood.options.good', code: 'too_long' },
      { path: 'translations.es.questions.why.description', code: 'too_long' },
    ]));
  });

  it('checks piping in translated texts as in the texts they translate', () => {
    const input = translated();
    input.translations.es = { sections: { one: { name: 'Hola {{answer.mood}}' }, two: { name: '{{dims.nope}}' } }, questions: { why: { name: '{{answer.grid}}' } } } as never;
    expect(errorsOf(input)).toEqual([
      { path: 'translations.es.sections.one.name', code: 'invalid_reference' },
      { path: 'translations.es.sections.two.name', code: 'unknown_reference' },
      { path: 'translations.es.questions.why.name', code: 'invalid_reference' },
    ]);
  });

  it('offers the own language and the complete translations; the incomplete one says what it lacks', () => {
    const resolved = resolveFormDefinition(translated(), null);
    if (!resolved.ok) throw new Error('invalid');
    const content = resolved.value.resolved;
    const texts = translated();
    expect(offeredLanguages('en', { ...texts, sections: content.sections }, content.translations)).toEqual(['en', 'pt-BR']);
    expect(missingTranslations({ ...texts, sections: content.sections }, content.translations?.es)).toEqual([
      'description', 'thankYou', 'sections.one.name', 'questions.mood.options.good', 'questions.mood.options.bad',
      'sections.two.name', 'sections.two.description', 'questions.grid.name', 'questions.grid.rows.r', 'questions.grid.columns.c',
      'questions.why.name', 'questions.why.description',
    ]);
    expect(offeredLanguages(undefined, { ...texts, sections: content.sections }, content.translations)).toEqual([]);
  });

  it('translates every text by key, ids and order unchanged, and exports the translations as written', () => {
    const resolved = resolveFormDefinition(translated(), null);
    if (!resolved.ok) throw new Error('invalid');
    const content = resolved.value.resolved;
    const form = translateForm({ name: 'Pulse', description: 'How was the week?', content }, 'pt-BR');
    expect([form.name, form.description, form.content.thankYou]).toEqual(['Pulso', 'Como foi a semana?', 'Obrigado!']);
    const [one, two] = form.content.sections;
    expect(one.questions[0].options!.map((o) => [o.id, o.name])).toEqual(content.sections[0].questions[0].options!.map((o, i) => [o.id, ['Bom', 'Ruim'][i]]));
    expect([two.name, two.description, two.questions[0].rows![0].name, two.questions[0].columns![0].name, two.questions[1].description]).toEqual(['Depois', 'Por que {{answer.mood}}?', 'Linha', 'Coluna', 'Uma palavra']);
    const exported = exportFormDefinition(content, { slug: 'pulse', name: 'Pulse', description: 'How was the week?', settings: { isPublic: false, isClosed: false, requiresInvite: false, anonymous: false, language: 'en' } });
    expect(exported.translations).toEqual(translated().translations);
  });
});
