import { describe, expect, it } from 'vitest';
import type { FieldError } from '../../../lib/errors.js';
import { QUESTION_TYPES, validateFormDefinition } from './index.js';
import { allQuestionTypesExample } from '../../../../test/forms.js';

const example: unknown = allQuestionTypesExample();

function form(sections: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { slug: 'test-form', name: 'Test form', sections, ...extra };
}

function section(questions: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { key: `s${Math.random().toString(36).slice(2, 8)}`, name: 'Section', questions, ...extra };
}

const radio = (key: string, optionKeys = ['a', 'b']) => ({
  key,
  name: key,
  type: 'RADIO',
  options: optionKeys.map((k) => ({ key: k, name: k.toUpperCase() })),
});
const q = (key: string, type: string, extra: Record<string, unknown> = {}) => ({ key, name: key, type, ...extra });

/** `path code` pairs: compact to assert and readable when a test fails. */
function errorsOf(input: unknown): string[] {
  const result = validateFormDefinition(input);
  return result.ok ? [] : result.errors.map((e: FieldError) => `${e.path} ${e.code}`);
}

describe('validateFormDefinition: the example file', () => {
  it('validates and uses every question type and every dim kind', () => {
    const result = validateFormDefinition(example);
    expect(result.ok ? [] : result.errors).toEqual([]);
    if (!result.ok) return;
    const types = new Set(result.value.sections.flatMap((s) => s.questions.map((question) => question.type)));
    expect([...types].sort()).toEqual([...QUESTION_TYPES].sort());
    expect(result.value.dims.map((d) => d.kind).sort()).toEqual(['course', 'date', 'number', 'teacher', 'text', 'unit']);
  });

  it('applies defaults: settings, dims, mandatory and dim source', () => {
    const result = validateFormDefinition(
      form([section([q('t', 'TEXT')])], { settings: { isPublic: true }, dims: [{ key: 'year', kind: 'number' }] }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.settings).toEqual({ isPublic: true, isClosed: false, requiresInvite: false, anonymous: false });
    expect(result.value.dims).toEqual([{ key: 'year', kind: 'number', source: 'invite' }]);
    expect(result.value.sections[0].questions[0].mandatory).toBe(false);
    const bare = validateFormDefinition(form([section([])]));
    expect(bare.ok && bare.value.dims).toEqual([]);
    expect(bare.ok && bare.value.settings.anonymous).toBe(false);
  });

  it('does not modify its input', () => {
    const input = form([section([q('t', 'TEXT')])]);
    const copy = structuredClone(input);
    validateFormDefinition(input);
    expect(input).toEqual(copy);
  });
});

describe('validateFormDefinition: structure', () => {
  it('rejects a non-object', () => {
    expect(errorsOf(42)).toEqual([' invalid_type']);
    expect(errorsOf(null)).toEqual([' invalid_type']);
  });

  it('reports missing required fields with their paths', () => {
    expect(errorsOf({ sections: [{ questions: [{ type: 'TEXT' }] }] })).toEqual([
      'slug required',
      'name required',
      'sections[0].key required',
      'sections[0].name required',
      'sections[0].questions[0].key required',
      'sections[0].questions[0].name required',
    ]);
  });

  it('reports wrong types, formats, blanks, unknown values and unknown properties', () => {
    const errors = errorsOf(
      form(
        [
          section([
            { key: 'bad key', name: '  ', type: 'SLIDER', mandatory: 'yes', extra: 1 },
            q('n', 'NUMBER', { min: '1', step: 0 }),
          ]),
        ],
        { slug: 'Not_A_Slug', settings: { isPublic: 1 }, version: 2, colour: 'red' },
      ),
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        'slug invalid_format',
        'version invalid_value',
        'colour unknown_field',
        'settings.isPublic invalid_type',
        'sections[0].questions[0].key invalid_format',
        'sections[0].questions[0].name required',
        'sections[0].questions[0].type invalid_value',
        'sections[0].questions[0].mandatory invalid_type',
        'sections[0].questions[0].extra unknown_field',
        'sections[0].questions[1].min invalid_type',
        'sections[0].questions[1].step too_small',
      ]),
    );
  });

  it('words messages for people', () => {
    const result = validateFormDefinition(form([section([q('x', 'SLIDER')])], { slug: 'Bad!' }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byPath = Object.fromEntries(result.errors.map((e) => [e.path, e.message]));
    expect(byPath.slug).toMatch(/^slug must be 1 to 63 lower-case letters/);
    expect(byPath['sections[0].questions[0].type']).toMatch(/must be one of TEXT, PARAGRAPH, .*FILE\.$/);
  });

  it('takes a closing date as an instant with its offset, and refuses anything else at settings.closesAt', () => {
    for (const closesAt of ['2026-06-30T23:59:00.000Z', '2026-06-30T20:59:00-03:00']) {
      expect(errorsOf(form([section([])], { settings: { closesAt } }))).toEqual([]);
    }
    for (const closesAt of ['next friday', '2026-06-30', '2026-06-30T23:59:00', '2026-13-01T00:00:00Z']) {
      expect(errorsOf(form([section([])], { settings: { closesAt } })), closesAt).toEqual(['settings.closesAt invalid_format']);
    }
    expect(errorsOf(form([section([])], { settings: { closesAt: 5 } }))).toEqual(['settings.closesAt invalid_type']);
  });

  it('requires at least one section and limits list sizes', () => {
    expect(errorsOf(form([]))).toEqual(['sections required']);
    const options = Array.from({ length: 201 }, (_, i) => `o${i}`);
    expect(errorsOf(form([section([radio('r', options)])]))).toEqual(['sections[0].questions[0].options too_long']);
  });
});

describe('validateFormDefinition: keys and ids', () => {
  it('rejects duplicate section keys and question keys across sections', () => {
    expect(
      errorsOf(form([section([q('a', 'TEXT')], { key: 's' }), section([q('b', 'TEXT'), q('a', 'TEXT')], { key: 's' })])),
    ).toEqual(['sections[1].key not_unique', 'sections[1].questions[1].key not_unique']);
  });

  it('rejects duplicate option, row, column and dim keys', () => {
    const matrix = q('m', 'MATRIX', {
      rows: [{ key: 'r', name: 'R' }, { key: 'r', name: 'R again' }],
      columns: [{ key: 'c', name: 'C' }, { key: 'd', name: 'D' }, { key: 'c', name: 'C again' }],
    });
    const dims = [{ key: 'year', kind: 'number' }, { key: 'year', kind: 'text' }];
    expect(errorsOf(form([section([radio('r', ['a', 'b', 'a']), matrix])], { dims }))).toEqual([
      'sections[0].questions[0].options[2].key not_unique',
      'sections[0].questions[1].rows[1].key not_unique',
      'sections[0].questions[1].columns[2].key not_unique',
      'dims[1].key not_unique',
    ]);
  });

  it('allows the same option key in different questions', () => {
    expect(errorsOf(form([section([radio('r1', ['yes', 'no']), radio('r2', ['yes', 'no'])])]))).toEqual([]);
  });

  it('rejects ids that are not UUIDs and ids used twice', () => {
    const id = '0190a5b2-0000-7000-8000-000000000001';
    const errors = errorsOf(
      form([section([{ ...radio('r'), id: 'q-1' }, { ...q('t', 'TEXT'), id }], { id })]),
    );
    expect(errors).toEqual(['sections[0].questions[0].id invalid_format', 'sections[0].questions[1].id not_unique']);
  });
});

describe('validateFormDefinition: rules per question type', () => {
  it.each(['RADIO', 'SELECT', 'CHECKBOX', 'RANKING'])('%s requires at least one option', (type) => {
    expect(errorsOf(form([section([q('c', type)])]))).toEqual(['sections[0].questions[0].options required']);
    expect(errorsOf(form([section([q('c', type, { options: [] })])]))).toEqual(['sections[0].questions[0].options required']);
  });

  it('MATRIX requires rows and columns', () => {
    expect(errorsOf(form([section([q('m', 'MATRIX', { rows: [] })])]))).toEqual([
      'sections[0].questions[0].rows required',
      'sections[0].questions[0].columns required',
    ]);
  });

  it('rejects properties that do not belong to the type', () => {
    const choice = [{ key: 'x', name: 'X' }];
    expect(
      errorsOf(
        form([
          section([
            q('t', 'TEXT', { options: choice, min: 1 }),
            q('n', 'NPS', { max: 10 }),
            { ...radio('r'), rows: choice, step: 1 },
            q('s', 'STAR', { min: 1 }),
          ]),
        ]),
      ),
    ).toEqual([
      'sections[0].questions[0].options not_applicable',
      'sections[0].questions[0].min not_applicable',
      'sections[0].questions[1].max not_applicable',
      'sections[0].questions[2].rows not_applicable',
      'sections[0].questions[2].step not_applicable',
      'sections[0].questions[3].min not_applicable',
    ]);
  });

  it('RANGE requires min < max', () => {
    expect(errorsOf(form([section([q('r', 'RANGE', { min: 1 })])]))).toEqual(['sections[0].questions[0].max required']);
    expect(errorsOf(form([section([q('r', 'RANGE', { min: 5, max: 5 })])]))).toEqual(['sections[0].questions[0].max invalid_value']);
    expect(errorsOf(form([section([q('r', 'RANGE', { min: 0, max: 1, step: 0.25 })])]))).toEqual([]);
  });

  it('NUMBER bounds are optional but ordered', () => {
    expect(errorsOf(form([section([q('n', 'NUMBER'), q('m', 'NUMBER', { min: -1 })])]))).toEqual([]);
    expect(errorsOf(form([section([q('n', 'NUMBER', { min: 3, max: 1 })])]))).toEqual(['sections[0].questions[0].max invalid_value']);
  });

  it('STAR max is a whole number from 1 to 10', () => {
    for (const max of [0, 11, 2.5]) {
      expect(errorsOf(form([section([q('s', 'STAR', { max })])]))).toEqual(['sections[0].questions[0].max invalid_value']);
    }
    expect(errorsOf(form([section([q('s', 'STAR', { max: 10 }), q('t', 'STAR', { max: 1 })])]))).toEqual([]);
  });
});

describe('validateFormDefinition: conditions', () => {
  const base = [radio('color', ['red', 'blue']), q('age', 'NUMBER'), q('ok', 'BOOLEAN'), q('when', 'DATE')];
  const withCondition = (visibleIf: unknown, extra: Record<string, unknown> = {}) =>
    errorsOf(form([section([...base, { ...q('target', 'TEXT'), visibleIf, ...extra }])]));
  const at = 'sections[0].questions[4].visibleIf';

  it('accepts conditions fitting their question types', () => {
    expect(
      withCondition({
        all: [
          { question: 'color', equals: 'red' },
          { question: 'color', in: ['red', 'blue'] },
          { question: 'age', gte: 18, lte: 65 },
          { question: 'ok', notEquals: false },
          { question: 'when', gte: '2024-01-01' },
          { any: [{ question: 'age', answered: true }, { question: 'color', answered: false }] },
        ],
      }),
    ).toEqual([]);
  });

  it('unknown_reference and invalid_reference', () => {
    expect(withCondition({ question: 'nope', answered: true })).toEqual([`${at}.question unknown_reference`]);
    expect(withCondition({ question: 'target', answered: true })).toEqual([`${at}.question invalid_reference`]);
    const later = form([section([{ ...q('first', 'TEXT'), visibleIf: { question: 'second', answered: true } }, q('second', 'TEXT')])]);
    expect(errorsOf(later)).toEqual(['sections[0].questions[0].visibleIf.question invalid_reference']);
  });

  it('a section condition may only use questions of earlier sections', () => {
    const own = form([section([q('a', 'TEXT')]), section([q('b', 'TEXT')], { visibleIf: { question: 'b', answered: true } })]);
    expect(errorsOf(own)).toEqual(['sections[1].visibleIf.question invalid_reference']);
    const earlier = form([section([q('a', 'TEXT')]), section([q('b', 'TEXT')], { visibleIf: { question: 'a', answered: true } })]);
    expect(errorsOf(earlier)).toEqual([]);
    const empty = form([section([]), section([q('b', 'TEXT')], { visibleIf: { question: 'b', answered: true } })]);
    expect(errorsOf(empty)).toEqual(['sections[1].visibleIf.question invalid_reference']);
  });

  it('unknown_reference for option keys the question lacks', () => {
    expect(withCondition({ question: 'color', equals: 'green' })).toEqual([`${at}.equals unknown_reference`]);
    expect(withCondition({ question: 'color', in: ['red', 'green'] })).toEqual([`${at}.in[1] unknown_reference`]);
    expect(withCondition({ question: 'color', equals: 3 })).toEqual([`${at}.equals invalid_value`]);
  });

  it('not_applicable when the operator does not fit the type', () => {
    expect(withCondition({ question: 'color', gte: 'red' })).toEqual([`${at}.gte not_applicable`]);
    expect(withCondition({ question: 'ok', lte: 1 })).toEqual([`${at}.lte not_applicable`]);
    const ranked = form([section([{ ...radio('r'), type: 'RANKING' }, { ...q('t', 'TEXT'), visibleIf: { question: 'r', equals: 'a' } }])]);
    expect(errorsOf(ranked)).toEqual(['sections[0].questions[1].visibleIf.equals not_applicable']);
    const text = form([section([q('name', 'TEXT'), { ...q('t', 'TEXT'), visibleIf: { question: 'name', gte: 'm' } }])]);
    expect(errorsOf(text)).toEqual(['sections[0].questions[1].visibleIf.gte not_applicable']);
  });

  it('invalid_value when the operand does not fit the type', () => {
    expect(withCondition({ question: 'age', equals: '18' })).toEqual([`${at}.equals invalid_value`]);
    expect(withCondition({ question: 'ok', equals: 'true' })).toEqual([`${at}.equals invalid_value`]);
    expect(withCondition({ question: 'when', gte: '2024-02-30' })).toEqual([`${at}.gte invalid_value`]);
    expect(withCondition({ question: 'age', in: [1, 'two'] })).toEqual([`${at}.in[1] invalid_value`]);
  });

  it('required without an operator, invalid_type for a non-object', () => {
    expect(withCondition({ question: 'age' })).toEqual([`${at} required`]);
    expect(withCondition('age > 3')).toEqual([`${at} invalid_type`]);
    expect(withCondition({ all: [{ question: 'age', answered: true }, 7] })).toEqual([`${at}.all[1] invalid_type`]);
  });

  it('structural errors inside conditions, nested paths included', () => {
    expect(withCondition({ all: [] })).toEqual([`${at}.all required`]);
    expect(withCondition({ all: [{ question: 'age', answered: true }], any: [] })).toEqual([`${at}.any unknown_field`]);
    expect(withCondition({ question: 'age', answered: 'yes', greater: 3 })).toEqual([
      `${at}.greater unknown_field`,
      `${at}.answered invalid_type`,
    ]);
    expect(withCondition({ any: [{ all: [{ question: 'colour', equals: 'red' }] }] })).toEqual([
      `${at}.any[0].all[0].question unknown_reference`,
    ]);
  });

  it('invalid_value for runaway nesting', () => {
    let condition: unknown = { question: 'age', answered: true };
    for (let i = 0; i < 10; i++) condition = { all: [condition] };
    expect(withCondition(condition)).toEqual([`${at}.all[0].all[0].all[0].all[0].all[0].all[0].all[0].all[0] invalid_value`]);
  });
});

describe('validateFormDefinition: dims', () => {
  const sections = [section([radio('campus', ['N', 'S']), q('age', 'NUMBER'), q('note', 'TEXT')])];
  const dimErrors = (dims: unknown[]) => errorsOf(form(sections, { dims }));

  it('accepts every kind with a fitting source', () => {
    expect(
      dimErrors([
        { key: 'course', kind: 'course', source: 'class' },
        { key: 'teacher', kind: 'teacher', source: 'link' },
        { key: 'campus', kind: 'unit', source: 'answer', question: 'campus' },
        { key: 'note', kind: 'text', source: 'answer', question: 'note' },
        { key: 'age', kind: 'number', source: 'answer', question: 'age' },
        { key: 'day', kind: 'date' },
      ]),
    ).toEqual([]);
  });

  it('rejects bad keys, kinds and sources', () => {
    expect(dimErrors([{ key: 'Year', kind: 'integer', source: 'cookie' }])).toEqual([
      'dims[0].key invalid_format',
      'dims[0].kind invalid_value',
      'dims[0].source invalid_value',
    ]);
  });

  it('invalid_value when the kind cannot come from there', () => {
    expect(dimErrors([{ key: 'teacher', kind: 'teacher', source: 'class' }, { key: 'day', kind: 'date', source: 'class' }])).toEqual([
      'dims[0].source invalid_value',
      'dims[1].source invalid_value',
    ]);
  });

  it('checks the question of answer-sourced dims', () => {
    expect(
      dimErrors([
        { key: 'a', kind: 'text', source: 'answer' },
        { key: 'b', kind: 'text', source: 'link', question: 'note' },
        { key: 'c', kind: 'text', source: 'answer', question: 'ghost' },
        { key: 'd', kind: 'course', source: 'answer', question: 'age' },
        { key: 'e', kind: 'number', source: 'answer', question: 'campus' },
      ]),
    ).toEqual([
      'dims[0].question required',
      'dims[1].question not_applicable',
      'dims[2].question unknown_reference',
      'dims[3].question invalid_reference',
      'dims[4].question invalid_reference',
    ]);
  });

  it('allows at most one unit dim', () => {
    expect(dimErrors([{ key: 'u1', kind: 'unit' }, { key: 'u2', kind: 'unit', source: 'link' }])).toEqual([
      'dims[1].kind not_unique',
    ]);
  });
});

describe('validateFormDefinition: collects everything', () => {
  it('reports structural and semantic errors of the whole file together', () => {
    const errors = errorsOf(
      form(
        [
          section([radio('a'), q('a', 'TEXT', { min: 1 }), { ...q('b', 'TEXT'), visibleIf: { question: 'a', equals: 'zz' } }]),
          section([{ key: 'c', type: 'TEXT' }]),
        ],
        { slug: '-bad' },
      ),
    );
    expect(errors).toEqual([
      'slug invalid_format',
      'sections[1].questions[0].name required',
      'sections[0].questions[1].key not_unique',
      'sections[0].questions[1].min not_applicable',
      'sections[0].questions[2].visibleIf.equals unknown_reference',
    ]);
  });
});

describe('validateFormDefinition: the e-mail block', () => {
  const dims = [
    { key: 'course', kind: 'course' },
    { key: 'campus', kind: 'unit', source: 'link' },
  ];
  const withEmail = (email: unknown) => form([section([q('t', 'TEXT')])], { dims, email });

  it('accepts every variable of the contract and a dim the invite carries, and keeps the block', () => {
    const email = {
      subject: '{{formName}} for {{name}}',
      body: 'Hi {{#name}}{{name}}{{/name}} ({{email}} {{phone}} {{externalId}}): {{url}} until {{expiresAt}}, {{dims.course}}{{! a comment }}',
    };
    const result = validateFormDefinition(withEmail(email));
    expect(result.ok ? [] : result.errors).toEqual([]);
    expect(result.ok && result.value.email).toEqual(email);
    expect(errorsOf(withEmail({ body: 'Only the body: {{url}}' }))).toEqual([]);
  });

  it('names the part of an unknown variable, an undeclared dim, a dim the invite does not carry, and bad Mustache', () => {
    const result = validateFormDefinition(withEmail({ subject: 'Hello {{firstName}}', body: '{{dims.year}} {{dims.campus}} {{#url}}open' }));
    expect(result.ok ? [] : result.errors).toEqual([
      { path: 'email.subject', code: 'unknown_reference', message: '{{firstName}} is not a template variable. Use name, email, phone, externalId, url, formName, company, expiresAt or dims.<key>.' },
      { path: 'email.body', code: 'invalid_format', message: expect.stringContaining('Unclosed section "url"') },
    ]);
    expect(errorsOf(withEmail({ body: '{{dims.year}} {{#dims.campus}}{{dims.campus}}{{/dims.campus}} {{url}}' }))).toEqual(['email.body unknown_reference', 'email.body invalid_reference']);
    expect(validateFormDefinition(withEmail({ body: '{{dims.campus}}' }))).toMatchObject({
      ok: false,
      errors: [{ message: '{{dims.campus}}: the dim comes from the link, not the invite, so an invitation cannot show it.' }],
    });
    expect(errorsOf(withEmail({ body: '{{> footer}} {{url}}' }))).toEqual(['email.body invalid_format']);
  });

  it('refuses a subject on several lines, blank parts, unknown properties and an empty block', () => {
    expect(errorsOf(withEmail({ subject: 'Line one\r\nBcc: someone@else.example' }))).toEqual(['email.subject invalid_format']);
    expect(errorsOf(withEmail({ subject: '  ', body: ' \n ' }))).toEqual(['email.subject invalid_format', 'email.body required']);
    expect(errorsOf(withEmail({ subject: 'x'.repeat(256) }))).toEqual(['email.subject too_long']);
    expect(errorsOf(withEmail({ subject: 'Hi', html: '<p>' }))).toEqual(['email.html unknown_field']);
    expect(errorsOf(withEmail({}))).toEqual(['email required']);
    expect(errorsOf(withEmail('Subject'))).toEqual(['email invalid_type']);
  });
});
