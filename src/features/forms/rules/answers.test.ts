import { describe, expect, it } from 'vitest';
import { resolveFormDefinition, type Answers, type ResolvedForm } from '../definition/index.js';
import { dropHidden, isAnswered, isVisible, validateAnswers, visibleQuestionIds } from './index.js';

function resolve(definition: unknown): ResolvedForm {
  const result = resolveFormDefinition(definition, null);
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.value.resolved;
}

/** Lookups from authoring keys to the ids answers are keyed by. */
function idsOf(form: ResolvedForm) {
  const questions = form.sections.flatMap((s) => s.questions);
  const question = (key: string) => questions.find((q) => q.key === key)!;
  return {
    q: (key: string) => question(key).id,
    opt: (key: string, optionKey: string) => question(key).options!.find((o) => o.key === optionKey)!.id,
    row: (key: string, rowKey: string) => question(key).rows!.find((r) => r.key === rowKey)!.id,
    col: (key: string, columnKey: string) => question(key).columns!.find((c) => c.key === columnKey)!.id,
  };
}

const choices = (...keys: string[]) => keys.map((key) => ({ key, name: key }));

/** `path code` of each error, with question ids in paths written as question keys. */
function errorsOf(form: ResolvedForm, answers: Answers): string[] {
  const questions = form.sections.flatMap((s) => s.questions);
  const withKeys = (path: string) => questions.reduce((p, question) => p.replace(question.id, question.key), path);
  return validateAnswers(form, answers).map((e) => `${withKeys(e.path)} ${e.code}`);
}

describe('isAnswered', () => {
  it('treats blank text, empty lists and empty objects as unanswered', () => {
    for (const value of [undefined, null, '', '   ', [], {}]) expect(isAnswered(value)).toBe(false);
    for (const value of ['x', 0, false, ['a'], { r: 'c' }]) expect(isAnswered(value)).toBe(true);
  });
});

describe('isVisible', () => {
  const Q = 'q';

  it('is true without a condition', () => {
    expect(isVisible(undefined, {})).toBe(true);
  });

  it('equals, notEquals and in on single values', () => {
    expect(isVisible({ questionId: Q, equals: 'a' }, { q: 'a' })).toBe(true);
    expect(isVisible({ questionId: Q, equals: 'a' }, { q: 'b' })).toBe(false);
    expect(isVisible({ questionId: Q, equals: 'a' }, {})).toBe(false);
    expect(isVisible({ questionId: Q, notEquals: 'a' }, { q: 'b' })).toBe(true);
    expect(isVisible({ questionId: Q, notEquals: 'a' }, { q: 'a' })).toBe(false);
    expect(isVisible({ questionId: Q, notEquals: 'a' }, {})).toBe(true); // the negation of equals
    expect(isVisible({ questionId: Q, in: ['a', 'b'] }, { q: 'b' })).toBe(true);
    expect(isVisible({ questionId: Q, in: ['a', 'b'] }, { q: 'c' })).toBe(false);
    expect(isVisible({ questionId: Q, equals: false }, { q: false })).toBe(true);
    expect(isVisible({ questionId: Q, equals: false }, {})).toBe(false);
    expect(isVisible({ questionId: Q, equals: 3 }, { q: 3 })).toBe(true);
  });

  it('equals and in on multiple choices mean "is among the chosen"', () => {
    expect(isVisible({ questionId: Q, equals: 'b' }, { q: ['a', 'b'] })).toBe(true);
    expect(isVisible({ questionId: Q, notEquals: 'b' }, { q: ['a', 'b'] })).toBe(false);
    expect(isVisible({ questionId: Q, in: ['c', 'a'] }, { q: ['a', 'b'] })).toBe(true);
    expect(isVisible({ questionId: Q, in: ['c'] }, { q: ['a', 'b'] })).toBe(false);
  });

  it('gte and lte on numbers, dates, times and timestamps', () => {
    expect(isVisible({ questionId: Q, gte: 9 }, { q: 9 })).toBe(true);
    expect(isVisible({ questionId: Q, gte: 9 }, { q: 8 })).toBe(false);
    expect(isVisible({ questionId: Q, gte: 9 }, {})).toBe(false);
    expect(isVisible({ questionId: Q, lte: 6 }, {})).toBe(false);
    expect(isVisible({ questionId: Q, gte: 2, lte: 4 }, { q: 3 })).toBe(true);
    expect(isVisible({ questionId: Q, gte: 2, lte: 4 }, { q: 5 })).toBe(false);
    expect(isVisible({ questionId: Q, gte: '2024-01-01' }, { q: '2024-06-30' })).toBe(true);
    expect(isVisible({ questionId: Q, lte: '2024-01-01' }, { q: '2024-06-30' })).toBe(false);
    expect(isVisible({ questionId: Q, lte: '09:30' }, { q: '08:59' })).toBe(true);
    // same instant written in two zones
    expect(isVisible({ questionId: Q, gte: '2024-01-01T12:00:00Z' }, { q: '2024-01-01T09:00:00-03:00' })).toBe(true);
    expect(isVisible({ questionId: Q, equals: '2024-01-01T12:00:00Z' }, { q: '2024-01-01T14:00+02:00' })).toBe(true);
    expect(isVisible({ questionId: Q, gte: 3 }, { q: 'three' })).toBe(false);
  });

  it('answered true and false', () => {
    expect(isVisible({ questionId: Q, answered: true }, { q: 'x' })).toBe(true);
    expect(isVisible({ questionId: Q, answered: true }, { q: '  ' })).toBe(false);
    expect(isVisible({ questionId: Q, answered: false }, {})).toBe(true);
    expect(isVisible({ questionId: Q, answered: false }, { q: [] })).toBe(true);
  });

  it('all and any, nested', () => {
    const condition = {
      any: [
        { all: [{ questionId: 'a', equals: 1 }, { questionId: 'b', equals: 2 }] },
        { questionId: 'c', answered: true },
      ],
    };
    expect(isVisible(condition, { a: 1, b: 2 })).toBe(true);
    expect(isVisible(condition, { a: 1, b: 3 })).toBe(false);
    expect(isVisible(condition, { a: 1, b: 3, c: 'x' })).toBe(true);
  });
});

describe('visibleQuestionIds', () => {
  const form = resolve({
    slug: 'branching',
    name: 'Branching',
    sections: [
      {
        key: 'start',
        name: 'Start',
        questions: [
          { key: 'student', name: 'Are you a student?', type: 'BOOLEAN' },
          { key: 'school', name: 'Which school?', type: 'RADIO', options: choices('north', 'south'), visibleIf: { question: 'student', equals: true } },
          { key: 'year', name: 'Which year?', type: 'NUMBER', visibleIf: { question: 'school', answered: true } },
        ],
      },
      {
        key: 'north',
        name: 'North campus',
        visibleIf: { question: 'school', equals: 'north' },
        questions: [
          { key: 'dorm', name: 'Do you live in the dorm?', type: 'BOOLEAN' },
          { key: 'room', name: 'Room', type: 'TEXT', visibleIf: { question: 'dorm', equals: true } },
        ],
      },
      {
        key: 'end',
        name: 'End',
        questions: [
          { key: 'dormRating', name: 'Rate the dorm', type: 'STAR', visibleIf: { question: 'dorm', equals: true } },
          { key: 'comment', name: 'Anything else?', type: 'PARAGRAPH', visibleIf: { question: 'dorm', notEquals: true } },
        ],
      },
    ],
  });
  const { q, opt } = idsOf(form);
  const visibleKeys = (answers: Answers) => {
    const visible = visibleQuestionIds(form, answers);
    return ['student', 'school', 'year', 'dorm', 'room', 'dormRating', 'comment'].filter((key) => visible.has(q(key)));
  };

  it('shows unconditional questions and hides the rest with no answers', () => {
    expect(visibleKeys({})).toEqual(['student', 'comment']);
  });

  it('follows a branch down into a section', () => {
    expect(visibleKeys({ [q('student')]: true, [q('school')]: opt('school', 'north'), [q('dorm')]: true })).toEqual([
      'student', 'school', 'year', 'dorm', 'room', 'dormRating',
    ]);
    expect(visibleKeys({ [q('student')]: true, [q('school')]: opt('school', 'south') })).toEqual([
      'student', 'school', 'year', 'comment',
    ]);
  });

  it('drops hidden answers before later conditions read them, so hiding cascades', () => {
    // The respondent went down the north branch, then changed "student" to false: the stale
    // answers of school and dorm must not keep year, the north section or dormRating visible.
    const stale = { [q('student')]: false, [q('school')]: opt('school', 'north'), [q('year')]: 2, [q('dorm')]: true, [q('room')]: '12' };
    expect(visibleKeys(stale)).toEqual(['student', 'comment']);
  });

  it('dropHidden keeps only the answers of visible questions, which then validate', () => {
    const stale = { [q('student')]: false, [q('school')]: opt('school', 'north'), [q('dorm')]: true, [q('comment')]: 'ok', unknown: 1 };
    expect(validateAnswers(form, stale).map((e) => e.code).sort()).toEqual(['not_applicable', 'not_applicable', 'unknown_field']);
    const kept = dropHidden(form, stale);
    expect(kept).toEqual({ [q('student')]: false, [q('comment')]: 'ok' });
    expect(validateAnswers(form, kept)).toEqual([]);
  });
});

describe('validateAnswers', () => {
  const form = resolve({
    slug: 'all-types',
    name: 'All types',
    sections: [
      {
        key: 'main',
        name: 'Main',
        questions: [
          { key: 'text', name: 'Text', type: 'TEXT' },
          { key: 'paragraph', name: 'Paragraph', type: 'PARAGRAPH' },
          { key: 'date', name: 'Date', type: 'DATE' },
          { key: 'time', name: 'Time', type: 'TIME' },
          { key: 'datetime', name: 'Datetime', type: 'DATETIME' },
          { key: 'number', name: 'Number', type: 'NUMBER', min: 0, max: 1, step: 0.1 },
          { key: 'free', name: 'Free number', type: 'NUMBER' },
          { key: 'range', name: 'Range', type: 'RANGE', min: 1, max: 7 },
          { key: 'nps', name: 'NPS', type: 'NPS' },
          { key: 'star', name: 'Star', type: 'STAR' },
          { key: 'boolean', name: 'Boolean', type: 'BOOLEAN' },
          { key: 'radio', name: 'Radio', type: 'RADIO', options: choices('a', 'b') },
          { key: 'select', name: 'Select', type: 'SELECT', options: choices('a', 'b') },
          { key: 'checkbox', name: 'Checkbox', type: 'CHECKBOX', options: choices('a', 'b', 'c') },
          { key: 'ranking', name: 'Ranking', type: 'RANKING', options: choices('a', 'b', 'c') },
          { key: 'matrix', name: 'Matrix', type: 'MATRIX', rows: choices('r1', 'r2'), columns: choices('c1', 'c2') },
          { key: 'file', name: 'File', type: 'FILE' },
        ],
      },
    ],
  });
  const { q, opt, row, col } = idsOf(form);
  const errorsFor = (key: string, value: unknown) => errorsOf(form, { [q(key)]: value });

  const good: [string, unknown][] = [
    ['text', 'hello'],
    ['text', ''],
    ['paragraph', 'line one\nline two'],
    ['date', '2024-02-29'],
    ['time', '23:59'],
    ['datetime', '2024-02-29T10:15:00.000Z'],
    ['datetime', '2024-02-29T10:15-03:00'],
    ['number', 0.3],
    ['number', 1],
    ['free', -12345.678],
    ['range', 7],
    ['nps', 0],
    ['nps', 10],
    ['star', 5],
    ['boolean', false],
    ['checkbox', []],
    ['file', []],
    ['file', [{ fileId: 'f-1', name: 'a.png', size: 1024, mime: 'image/png' }]],
  ];
  it.each(good)('accepts %s = %j', (key, value) => {
    expect(errorsFor(key, value)).toEqual([]);
  });

  it('accepts option ids, ordered option lists and matrix cells', () => {
    expect(errorsFor('radio', opt('radio', 'b'))).toEqual([]);
    expect(errorsFor('select', opt('select', 'a'))).toEqual([]);
    expect(errorsFor('checkbox', [opt('checkbox', 'c'), opt('checkbox', 'a')])).toEqual([]);
    expect(errorsFor('ranking', ['c', 'a', 'b'].map((k) => opt('ranking', k)))).toEqual([]);
    expect(errorsFor('matrix', { [row('matrix', 'r2')]: col('matrix', 'c1') })).toEqual([]);
  });

  const bad: [string, unknown, string][] = [
    ['text', 42, 'answers.text invalid_type'],
    ['text', 'x'.repeat(10_001), 'answers.text too_long'],
    ['paragraph', ['a'], 'answers.paragraph invalid_type'],
    ['date', '2023-02-29', 'answers.date invalid_format'],
    ['date', '29/02/2024', 'answers.date invalid_format'],
    ['date', 20240229, 'answers.date invalid_type'],
    ['time', '24:00', 'answers.time invalid_format'],
    ['time', '9:30', 'answers.time invalid_format'],
    ['datetime', '2024-02-29T10:15:00', 'answers.datetime invalid_format'],
    ['datetime', '2024-02-29', 'answers.datetime invalid_format'],
    ['number', '0.5', 'answers.number invalid_type'],
    ['number', 1.1, 'answers.number too_large'],
    ['number', -0.1, 'answers.number too_small'],
    ['number', 0.25, 'answers.number invalid_value'],
    ['range', 0, 'answers.range too_small'],
    ['range', 2.5, 'answers.range invalid_value'],
    ['nps', 11, 'answers.nps too_large'],
    ['nps', 7.5, 'answers.nps invalid_value'],
    ['star', 0, 'answers.star too_small'],
    ['star', 6, 'answers.star too_large'],
    ['boolean', 'true', 'answers.boolean invalid_type'],
    ['radio', 'a', 'answers.radio unknown_reference'],
    ['radio', ['x'], 'answers.radio invalid_type'],
    ['select', 1, 'answers.select invalid_type'],
    ['checkbox', 'a', 'answers.checkbox invalid_type'],
    ['checkbox', ['nope'], 'answers.checkbox[0] unknown_reference'],
    ['ranking', [1, 2], 'answers.ranking invalid_type'],
    ['matrix', ['x'], 'answers.matrix invalid_type'],
    ['file', {}, 'answers.file invalid_type'],
    ['file', [{ fileId: 'f', name: 'a', size: -1, mime: 'text/plain' }], 'answers.file[0].size too_small'],
    ['file', [{ fileId: 'f', name: 'a', size: 1 }], 'answers.file[0].mime required'],
    ['file', [{ fileId: 'f', name: 'a', size: 1, mime: 'x/y', url: 'http://x' }], 'answers.file[0].url unknown_field'],
  ];
  it.each(bad)('rejects %s = %j', (key, value, expected) => {
    expect(errorsFor(key, value)).toEqual([expected]);
  });

  it('rejects a repeated option and an incomplete ranking', () => {
    const a = opt('checkbox', 'a');
    expect(errorsFor('checkbox', [a, opt('checkbox', 'b'), a])).toEqual(['answers.checkbox[2] not_unique']);
    expect(errorsFor('ranking', [opt('ranking', 'b'), opt('ranking', 'a')])).toEqual(['answers.ranking too_short']);
    const r = opt('ranking', 'a');
    expect(errorsFor('ranking', [r, r, opt('ranking', 'b')])).toEqual(['answers.ranking[1] not_unique']);
  });

  it('rejects unknown matrix rows and columns', () => {
    const r1 = row('matrix', 'r1');
    expect(errorsFor('matrix', { nope: col('matrix', 'c1') }).map((e) => e.replace(/\.nope /, '.<row> '))).toEqual([
      'answers.matrix.<row> unknown_field',
    ]);
    expect(errorsFor('matrix', { [r1]: 'nope' })).toEqual([`answers.matrix.${r1} unknown_reference`]);
    expect(errorsFor('matrix', { [r1]: 3 })).toEqual([`answers.matrix.${r1} unknown_reference`]);
  });

  it('rejects answers that are not an object, and unknown question ids', () => {
    expect(validateAnswers(form, [] as unknown as Answers).map((e) => e.code)).toEqual(['invalid_type']);
    expect(validateAnswers(form, { 'not-a-question': 'x' })).toMatchObject([{ path: 'answers.not-a-question', code: 'unknown_field' }]);
  });

  describe('mandatory and hidden questions', () => {
    const form = resolve({
      slug: 'mandatory',
      name: 'Mandatory',
      sections: [
        {
          key: 's1',
          name: 'S1',
          questions: [
            { key: 'consent', name: 'Consent', type: 'BOOLEAN', mandatory: true },
            { key: 'name', name: 'Name', type: 'TEXT', mandatory: true, visibleIf: { question: 'consent', equals: true } },
            { key: 'topics', name: 'Topics', type: 'CHECKBOX', mandatory: true, options: choices('x', 'y'), visibleIf: { question: 'consent', equals: true } },
          ],
        },
        {
          key: 's2',
          name: 'S2',
          visibleIf: { question: 'consent', equals: true },
          questions: [
            { key: 'grid', name: 'Grid', type: 'MATRIX', mandatory: true, rows: choices('r1', 'r2'), columns: choices('c') },
            { key: 'rank', name: 'Rank', type: 'RANKING', mandatory: true, options: choices('a', 'b') },
          ],
        },
      ],
    });
    const { q, opt, row, col } = idsOf(form);
    const codes = (answers: Answers) => errorsOf(form, answers);

    it('requires visible mandatory questions only', () => {
      expect(codes({})).toEqual(['answers.consent required']);
      expect(codes({ [q('consent')]: false })).toEqual([]);
      expect(codes({ [q('consent')]: true })).toEqual([
        'answers.name required',
        'answers.topics required',
        'answers.grid required',
        'answers.rank required',
      ]);
    });

    it('treats blank text and empty lists as unanswered', () => {
      const answers = {
        [q('consent')]: true,
        [q('name')]: '   ',
        [q('topics')]: [],
        [q('grid')]: { [row('grid', 'r1')]: col('grid', 'c'), [row('grid', 'r2')]: col('grid', 'c') },
        [q('rank')]: [opt('rank', 'b'), opt('rank', 'a')],
      };
      expect(codes(answers)).toEqual(['answers.name required', 'answers.topics required']);
    });

    it('a mandatory matrix needs every row', () => {
      const answers = {
        [q('consent')]: true,
        [q('name')]: 'Ada',
        [q('topics')]: [opt('topics', 'y')],
        [q('grid')]: { [row('grid', 'r1')]: col('grid', 'c') },
        [q('rank')]: [opt('rank', 'a'), opt('rank', 'b')],
      };
      expect(codes(answers)).toEqual([`answers.grid.${row('grid', 'r2')} required`]);
    });

    it('partial (a draft) skips the mandatory checks but not the others', () => {
      const draft = { [q('consent')]: true, [q('grid')]: { [row('grid', 'r1')]: col('grid', 'c') }, [q('rank')]: [opt('rank', 'a')] };
      expect(validateAnswers(form, draft, { partial: true }).map((e) => e.code)).toEqual(['too_short']);
      expect(validateAnswers(form, {}, { partial: true })).toEqual([]);
      expect(validateAnswers(form, { [q('consent')]: false, [q('name')]: 'x' }, { partial: true }).map((e) => e.code)).toEqual(['not_applicable']);
    });

    it('rejects answers to hidden questions, in hidden sections too', () => {
      const answers = { [q('consent')]: false, [q('name')]: 'Ada', [q('rank')]: [opt('rank', 'a'), opt('rank', 'b')] };
      expect(codes(answers)).toEqual(['answers.name not_applicable', 'answers.rank not_applicable']);
    });
  });
});
