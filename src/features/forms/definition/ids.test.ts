import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/errors.js';
import { isUuid } from '../../../lib/ids.js';
import { allQuestionTypesExample } from '../../../../test/forms.js';
import {
  CHOICE_TYPES,
  assignIds,
  checkExplicitIds,
  exportFormDefinition,
  questionCount,
  resolveFormDefinition,
  toPublicContent,
  validateFormDefinition,
  type FormDefinition,
  type FormMeta,
  type ResolvedForm,
  type ResolvedQuestion,
} from './index.js';

const example: unknown = allQuestionTypesExample();

/** Deterministic UUIDs, so that tests can tell minted ids apart. */
function counterIds(start = 1): () => string {
  let next = start;
  return () => `00000000-0000-7000-8000-${String(next++).padStart(12, '0')}`;
}

function valid(input: unknown): FormDefinition {
  const result = validateFormDefinition(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.value;
}

function questionByKey(form: ResolvedForm, key: string): ResolvedQuestion {
  const found = form.sections.flatMap((s) => s.questions).find((q) => q.key === key);
  if (!found) throw new Error(`no question ${key}`);
  return found;
}

function allIds(form: ResolvedForm): string[] {
  return form.sections.flatMap((s) => [
    s.id,
    ...s.questions.flatMap((q) => [q.id, ...[...(q.options ?? []), ...(q.rows ?? []), ...(q.columns ?? [])].map((c) => c.id)]),
  ]);
}

const version1 = {
  slug: 'feedback',
  name: 'Feedback',
  dims: [{ key: 'campus', kind: 'unit', source: 'answer', question: 'campus' }],
  sections: [
    {
      key: 'intro',
      name: 'Intro',
      questions: [
        { key: 'campus', name: 'Campus', type: 'RADIO', options: [{ key: 'N', name: 'North' }, { key: 'S', name: 'South' }] },
        { key: 'age', name: 'Age', type: 'NUMBER' },
      ],
    },
    {
      key: 'rating',
      name: 'Rating',
      visibleIf: { question: 'campus', equals: 'N' },
      questions: [
        { key: 'stars', name: 'Stars', type: 'STAR' },
        { key: 'grid', name: 'Grid', type: 'MATRIX', rows: [{ key: 'r1', name: 'R1' }], columns: [{ key: 'c1', name: 'C1' }, { key: 'c2', name: 'C2' }] },
        { key: 'why', name: 'Why', type: 'TEXT', visibleIf: { question: 'campus', in: ['N', 'S'] } },
      ],
    },
  ],
};

describe('assignIds: a first import', () => {
  const resolved = assignIds(valid(version1), null, counterIds());

  it('gives every section, question, option, row and column a distinct id', () => {
    const ids = allIds(resolved);
    expect(ids.every(isUuid)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('numbers choices from zero in file order', () => {
    expect(questionByKey(resolved, 'campus').options!.map((o) => [o.key, o.order])).toEqual([['N', 0], ['S', 1]]);
    expect(questionByKey(resolved, 'grid').columns!.map((c) => c.order)).toEqual([0, 1]);
  });

  it('materializes defaults and stores the format version', () => {
    expect(resolved.version).toBe(1);
    expect(questionByKey(resolved, 'stars').max).toBe(5);
    expect(questionByKey(resolved, 'age').mandatory).toBe(false);
    const range = assignIds(valid({ ...version1, dims: [], sections: [{ key: 's', name: 'S', questions: [{ key: 'r', name: 'R', type: 'RANGE', min: 0, max: 4 }] }] }), null);
    expect(range.sections[0].questions[0].step).toBe(1);
  });

  it('rewrites conditions and answer-sourced dims to ids', () => {
    const campus = questionByKey(resolved, 'campus');
    const [north, south] = campus.options!;
    expect(resolved.sections[1].visibleIf).toEqual({ questionId: campus.id, equals: north.id });
    expect(questionByKey(resolved, 'why').visibleIf).toEqual({ questionId: campus.id, in: [north.id, south.id] });
    expect(resolved.dims).toEqual([{ key: 'campus', kind: 'unit', source: 'answer', questionId: campus.id }]);
  });

  it('stores no undefined properties', () => {
    expect(JSON.parse(JSON.stringify(resolved))).toEqual(resolved);
    expect(Object.keys(questionByKey(resolved, 'age'))).toEqual(['id', 'key', 'name', 'type', 'mandatory']);
  });

  it('rejects explicit ids when there is no previous version', () => {
    const withId = structuredClone(version1) as typeof version1 & { sections: { id?: string }[] };
    withId.sections[0].id = '00000000-0000-7000-8000-000000000001';
    expect(() => assignIds(valid(withId), null)).toThrow(ApiError);
  });
});

describe('assignIds: an update', () => {
  const previous = assignIds(valid(version1), null, counterIds());
  const idOf = (key: string) => questionByKey(previous, key).id;

  /** Reordered sections and questions, a question moved across sections, items added and removed. */
  const version2 = {
    ...version1,
    sections: [
      {
        key: 'rating',
        name: 'Rating (renamed title)',
        questions: [
          { key: 'why', name: 'Why?', type: 'TEXT' },
          { key: 'grid', name: 'Grid', type: 'MATRIX', rows: [{ key: 'r2', name: 'R2' }, { key: 'r1', name: 'R1' }], columns: [{ key: 'c2', name: 'C2' }] },
          { key: 'age', name: 'Age', type: 'NUMBER' },
        ],
      },
      {
        key: 'intro',
        name: 'Intro',
        questions: [
          { key: 'campus', name: 'Campus', type: 'RADIO', options: [{ key: 'S', name: 'South' }, { key: 'E', name: 'East' }, { key: 'N', name: 'North' }] },
          { key: 'email', name: 'E-mail', type: 'TEXT' },
        ],
      },
    ],
  };
  const updated = assignIds(valid(version2), previous, counterIds(1000));

  it('keeps the ids of sections and questions by key, wherever they moved', () => {
    expect(updated.sections.map((s) => s.id)).toEqual([previous.sections[1].id, previous.sections[0].id]);
    for (const key of ['why', 'grid', 'age', 'campus']) expect(questionByKey(updated, key).id).toBe(idOf(key));
  });

  it('keeps choice ids by key within their question and renumbers their order', () => {
    const [oldNorth, oldSouth] = questionByKey(previous, 'campus').options!;
    const options = questionByKey(updated, 'campus').options!;
    expect(options.map((o) => [o.key, o.order])).toEqual([['S', 0], ['E', 1], ['N', 2]]);
    expect(options[0].id).toBe(oldSouth.id);
    expect(options[2].id).toBe(oldNorth.id);
    const grid = questionByKey(updated, 'grid');
    expect(grid.rows![1].id).toBe(questionByKey(previous, 'grid').rows![0].id);
    expect(grid.columns![0].id).toBe(questionByKey(previous, 'grid').columns![1].id);
  });

  it('mints new ids only for new items', () => {
    const oldIds = new Set(allIds(previous));
    const fresh = allIds(updated).filter((id) => !oldIds.has(id));
    expect(fresh).toHaveLength(3); // option E, question email, row r2
    expect(questionByKey(updated, 'email').id).toMatch(/^00000000-0000-7000-8000-0000000010/);
    expect(allIds(updated)).not.toContain(idOf('stars'));
  });

  it('gives a renamed key a new id', () => {
    const renamed = structuredClone(version1) as unknown as FormDefinition;
    renamed.sections[0].questions[1].key = 'ageInYears';
    renamed.sections[0].questions[0].options![0].key = 'NORTH';
    renamed.sections[1].visibleIf = { question: 'campus', equals: 'NORTH' };
    renamed.sections[1].questions[2].visibleIf = { question: 'campus', in: ['NORTH', 'S'] };
    const resolved = assignIds(valid(renamed), previous, counterIds(2000));
    expect(questionByKey(resolved, 'ageInYears').id).not.toBe(idOf('age'));
    expect(questionByKey(resolved, 'campus').id).toBe(idOf('campus'));
    expect(questionByKey(resolved, 'campus').options![0].id).not.toBe(questionByKey(previous, 'campus').options![0].id);
    expect(questionByKey(resolved, 'campus').options![1].id).toBe(questionByKey(previous, 'campus').options![1].id);
  });

  it('keeps explicit ids that belong to the same key and rejects others', () => {
    const withIds = structuredClone(version1) as unknown as FormDefinition;
    withIds.sections[0].questions[1].id = idOf('age');
    expect(questionByKey(assignIds(valid(withIds), previous), 'age').id).toBe(idOf('age'));

    const swapped = structuredClone(version1) as unknown as FormDefinition;
    swapped.sections[0].questions[1].id = idOf('campus');
    swapped.sections[0].questions[0].options![1].id = questionByKey(previous, 'campus').options![0].id;
    swapped.sections[1].id = '00000000-0000-7000-8000-00000000ffff';
    const definition = valid(swapped);
    expect(checkExplicitIds(definition, previous).map((e) => `${e.path} ${e.code}`)).toEqual([
      'sections[0].questions[0].options[1].id invalid_value',
      'sections[0].questions[1].id invalid_value',
      'sections[1].id invalid_value',
    ]);
    try {
      assignIds(definition, previous);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('VALIDATION_ERROR');
      expect((error as ApiError).details?.fields).toHaveLength(3);
    }
  });
});

describe('resolveFormDefinition', () => {
  it('validates, checks ids and resolves in one step', () => {
    const first = resolveFormDefinition(version1, null, counterIds());
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.value.definition.slug).toBe('feedback');
    expect(questionCount(first.value.resolved)).toBe(5);

    expect(resolveFormDefinition({ ...version1, slug: 'Bad' }, null)).toMatchObject({ ok: false, errors: [{ path: 'slug' }] });
    const foreign = structuredClone(version1) as unknown as FormDefinition;
    foreign.sections[0].id = '00000000-0000-7000-8000-000000000009';
    expect(resolveFormDefinition(foreign, first.value.resolved)).toMatchObject({
      ok: false,
      errors: [{ path: 'sections[0].id', code: 'invalid_value' }],
    });
  });
});

describe('exportFormDefinition', () => {
  const meta: FormMeta = {
    slug: 'course-experience',
    name: 'Course experience',
    description: 'End-of-term survey. Uses every question type, every dim kind and conditional visibility.',
    settings: { isPublic: true, isClosed: false, requiresInvite: false, anonymous: true },
  };

  it('round-trips import → export → import keeping every id', () => {
    const resolved = assignIds(valid(example), null, counterIds());
    const exported = exportFormDefinition(resolved, meta);
    const reimported = resolveFormDefinition(JSON.parse(JSON.stringify(exported)), resolved, counterIds(5000));
    expect(reimported.ok).toBe(true);
    if (!reimported.ok) return;
    expect(reimported.value.resolved).toEqual(resolved);
  });

  it('writes keys, not ids, in conditions and dims, and no choice order', () => {
    const resolved = assignIds(valid(version1), null, counterIds());
    const exported = exportFormDefinition(resolved, { slug: 'feedback', name: 'Feedback', settings: valid(version1).settings });
    expect(exported.sections[1].visibleIf).toEqual({ question: 'campus', equals: 'N' });
    expect(exported.sections[1].questions[2].visibleIf).toEqual({ question: 'campus', in: ['N', 'S'] });
    expect(exported.dims).toEqual([{ key: 'campus', kind: 'unit', source: 'answer', question: 'campus' }]);
    expect(exported.sections[0].questions[0].options![0]).toEqual({ id: resolved.sections[0].questions[0].options![0].id, key: 'N', name: 'North' });
    expect(exported).not.toHaveProperty('description');
  });

  it('the example file exports back to itself, plus ids and defaults', () => {
    const resolved = assignIds(valid(example), null, counterIds());
    const stripIds = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value, (key, v) => (key === 'id' ? undefined : v)));
    expect(stripIds(exportFormDefinition(resolved, meta))).toEqual(stripIds(valid(example)));
  });
});

describe('toPublicContent and questionCount', () => {
  const resolved = assignIds(valid(example), null, counterIds());
  const content = toPublicContent(resolved);

  it('has the shape of the form detail: ids, names, type, mandatory', () => {
    expect(content.sections).toHaveLength(3);
    expect(Object.keys(content.sections[0])).toEqual(['id', 'name', 'questions']);
    expect(content.sections[0].questions[1]).toEqual({
      id: questionByKey(resolved, 'nickname').id,
      name: 'What should we call you?',
      type: 'TEXT',
      mandatory: false,
      options: [],
    });
  });

  it('carries options (empty unless a choice type) and rows and columns for MATRIX only', () => {
    const questions = content.sections.flatMap((s) => s.questions);
    const withOptions = questions.filter((q) => q.options.length > 0).map((q) => q.type);
    expect(withOptions).toEqual(['RADIO', 'CHECKBOX', 'SELECT', 'RANKING']);
    expect([...CHOICE_TYPES].sort()).toEqual([...withOptions].sort());
    expect(questions[0].options).toEqual(
      questionByKey(resolved, 'campus').options!.map(({ id, name, order }) => ({ id, name, order })),
    );
    const matrix = questions.find((q) => q.type === 'MATRIX')!;
    expect(questions.filter((q) => q.rows || q.columns)).toEqual([matrix]);
    expect(Object.keys(matrix)).toEqual(['id', 'name', 'type', 'mandatory', 'options', 'rows', 'columns']);
    expect(matrix.columns!.map((c) => c.order)).toEqual([0, 1, 2, 3]);
  });

  it('never shows keys, descriptions or conditions', () => {
    const text = JSON.stringify(content);
    for (const hidden of ['"key"', 'description', 'visibleIf', 'questionId']) expect(text).not.toContain(hidden);
  });

  it('counts questions across sections', () => {
    expect(questionCount(resolved)).toBe(18);
  });
});
