import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { ApiError, type FieldError } from '../../lib/errors.js';
import type { ResolvedForm } from './definition/index.js';
import { exportForm } from './export-form.js';
import { findFormBySlug } from './find-form.js';
import { importForm } from './import-form.js';
import { allQuestionTypesExample } from '../../../test/forms.js';

const example = allQuestionTypesExample();

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const importInto = (companyId: string, definition: unknown) => importForm(t.ctx.db, t.ctx, { companyId, rawJson: definition });

/** The VALIDATION_ERROR entries of a rejected import. */
async function importErrors(companyId: string, definition: unknown): Promise<FieldError[]> {
  const error = await importInto(companyId, definition).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe('VALIDATION_ERROR');
  return (error as ApiError).details!.fields as FieldError[];
}

function questionIds(content: ResolvedForm): Record<string, string> {
  return Object.fromEntries(content.sections.flatMap((s) => s.questions).map((q) => [q.key, q.id]));
}

const small = {
  slug: 'pulse',
  name: 'Pulse',
  sections: [
    {
      key: 'main',
      name: 'Main',
      questions: [
        { key: 'mood', name: 'Mood', type: 'RADIO', options: [{ key: 'good', name: 'Good' }, { key: 'bad', name: 'Bad' }] },
        { key: 'why', name: 'Why?', type: 'TEXT' },
        { key: 'stars', name: 'Stars', type: 'STAR' },
      ],
    },
  ],
};

describe('importForm: create', () => {
  it('stores the resolved form, its dims, settings and counts', async () => {
    const company = await t.company();
    const result = await importInto(company.id, example);
    expect(result).toEqual({ status: 'created', id: expect.any(String), slug: 'course-experience', name: 'Course experience', questionCount: 18 });

    const row = (await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'course-experience' }))!;
    expect(row).toMatchObject({
      id: result.id,
      companyId: company.id,
      description: example.description,
      isPublic: true,
      isClosed: false,
      requiresInvite: false,
      anonymous: true,
      questionCount: 18,
      responseCount: 0,
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    });
    expect(row.content.version).toBe(1);
    expect(row.content.sections.map((s) => s.key)).toEqual(['about', 'course', 'online']);
    expect(row.dims).toEqual(row.content.dims);
    expect(row.dims.map((d) => [d.key, d.kind, d.source])).toEqual([
      ['course', 'course', 'class'],
      ['teacher', 'teacher', 'invite'],
      ['campus', 'unit', 'answer'],
      ['cohort', 'text', 'link'],
      ['cohortYear', 'number', 'invite'],
      ['termStart', 'date', 'invite'],
    ]);
    expect(row.dims[2].questionId).toBe(questionIds(row.content).campus);
  });

  it('keeps the slugs of different companies apart', async () => {
    const [a, b] = [await t.company(), await t.company()];
    const first = await importInto(a.id, small);
    const second = await importInto(b.id, small);
    expect(second.status).toBe('created');
    expect(second.id).not.toBe(first.id);
  });

  it('creates once when two imports of a new slug race', async () => {
    const company = await t.company();
    const results = await Promise.all([importInto(company.id, small), importInto(company.id, small)]);
    expect(results.map((r) => r.status).sort()).toEqual(['created', 'unchanged']);
    expect(results[0].id).toBe(results[1].id);
  });
});

describe('importForm: update', () => {
  it('keeps ids by key through reordering and additions, drops removed items, and moves only updatedAt', async () => {
    const company = await t.company();
    const created = await importInto(company.id, small);
    const before = (await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'pulse' }))!;
    const mood = before.content.sections[0].questions[0];

    t.clock.advance(60_000);
    const reordered = {
      ...small,
      name: 'Pulse check',
      settings: { isClosed: true },
      sections: [
        {
          key: 'main',
          name: 'Main',
          questions: [
            { key: 'stars', name: 'Stars', type: 'STAR' },
            { key: 'extra', name: 'Anything else?', type: 'PARAGRAPH' },
            { key: 'mood', name: 'Mood', type: 'RADIO', options: [{ key: 'meh', name: 'Meh' }, { key: 'bad', name: 'Bad' }, { key: 'good', name: 'Good' }] },
          ],
        },
      ],
    };
    const updated = await importInto(company.id, reordered);
    expect(updated).toEqual({ status: 'updated', id: created.id, slug: 'pulse', name: 'Pulse check', questionCount: 3 });

    const after = (await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'pulse' }))!;
    const ids = questionIds(after.content);
    expect(ids.stars).toBe(questionIds(before.content).stars);
    expect(ids.mood).toBe(mood.id);
    expect(ids.extra).not.toBeOneOf(Object.values(questionIds(before.content)));
    expect(ids).not.toHaveProperty('why');
    expect(after.content.sections[0].id).toBe(before.content.sections[0].id);

    const options = after.content.sections[0].questions[2].options!;
    const optionId = (key: string) => mood.options!.find((o) => o.key === key)!.id;
    expect(options.map((o) => [o.key, o.order])).toEqual([['meh', 0], ['bad', 1], ['good', 2]]);
    expect(options[1].id).toBe(optionId('bad'));
    expect(options[2].id).toBe(optionId('good'));
    expect(options[0].id).not.toBeOneOf(mood.options!.map((o) => o.id));

    expect(after).toMatchObject({ isClosed: true, isPublic: false, createdAt: before.createdAt, updatedAt: t.clock.now() });
  });

  it('round-trips through export: importing the export changes no id', async () => {
    const company = await t.company();
    const { id } = await importInto(company.id, { ...example, thankYou: 'Thanks!\nSee you next term.' });
    const before = (await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'course-experience' }))!;
    const exported = await exportForm(t.ctx.db, t.ctx, { companyId: company.id, idOrSlug: id });
    expect(exported).toMatchObject({ slug: 'course-experience', name: 'Course experience', settings: example.settings, thankYou: 'Thanks!\nSee you next term.' });
    expect(await exportForm(t.ctx.db, t.ctx, { companyId: company.id, idOrSlug: 'course-experience' })).toEqual(exported);

    await importInto(company.id, JSON.parse(JSON.stringify(exported)));
    const after = (await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'course-experience' }))!;
    expect(after.content).toEqual(before.content);
  });

  it("refuses ids that belong to another form (an export imported under a new slug)", async () => {
    const company = await t.company();
    const { id } = await importInto(company.id, small);
    const copy = { ...(await exportForm(t.ctx.db, t.ctx, { companyId: company.id, idOrSlug: id })), slug: 'pulse-copy' };
    const fields = await importErrors(company.id, copy);
    expect(fields).toContainEqual({ path: 'sections[0].id', code: 'invalid_value', message: expect.any(String) });
    expect(fields).toContainEqual({ path: 'sections[0].questions[0].options[1].id', code: 'invalid_value', message: expect.any(String) });
    expect(await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'pulse-copy' })).toBeNull();
  });

  it('exporting an unknown form, or one of another company, is NOT_FOUND', async () => {
    const [owner, other] = [await t.company(), await t.company()];
    const { id } = await importInto(owner.id, small);
    for (const ref of [id, 'pulse', 'nope']) {
      await expect(exportForm(t.ctx.db, t.ctx, { companyId: other.id, idOrSlug: ref })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});

describe('importForm: validation', () => {
  const withQuestion = (question: object, extra: object = {}) => ({
    ...small,
    ...extra,
    sections: [{ key: 'main', name: 'Main', questions: [{ key: 'first', name: 'First', type: 'BOOLEAN' }, question] }],
  });

  it.each([
    ['a non-object', 'not a form', '', 'invalid_type'],
    ['a bad slug', { ...small, slug: 'Bad Slug' }, 'slug', 'invalid_format'],
    ['a missing name', { slug: small.slug, sections: small.sections }, 'name', 'required'],
    ['no sections', { ...small, sections: [] }, 'sections', 'required'],
    ['an unknown type', withQuestion({ key: 'q', name: 'Q', type: 'SLIDER' }), 'sections[0].questions[1].type', 'invalid_value'],
    ['an unknown property', withQuestion({ key: 'q', name: 'Q', type: 'TEXT', mandatroy: true }), 'sections[0].questions[1].mandatroy', 'unknown_field'],
    ['options on TEXT', withQuestion({ key: 'q', name: 'Q', type: 'TEXT', options: [{ key: 'a', name: 'A' }] }), 'sections[0].questions[1].options', 'not_applicable'],
    ['a MATRIX without rows', withQuestion({ key: 'q', name: 'Q', type: 'MATRIX', columns: [{ key: 'c', name: 'C' }] }), 'sections[0].questions[1].rows', 'required'],
    ['a duplicate question key', withQuestion({ key: 'first', name: 'Again', type: 'TEXT' }), 'sections[0].questions[1].key', 'not_unique'],
    ['a forward reference', withQuestion({ key: 'q', name: 'Q', type: 'TEXT', visibleIf: { question: 'q', answered: true } }), 'sections[0].questions[1].visibleIf.question', 'invalid_reference'],
    ['a wrong operand', withQuestion({ key: 'q', name: 'Q', type: 'TEXT', visibleIf: { question: 'first', equals: 'yes' } }), 'sections[0].questions[1].visibleIf.equals', 'invalid_value'],
    [
      'a dim on a missing question',
      withQuestion({ key: 'q', name: 'Q', type: 'TEXT' }, { dims: [{ key: 'campus', kind: 'unit', source: 'answer', question: 'nope' }] }),
      'dims[0].question',
      'unknown_reference',
    ],
    ['a dim kind that cannot come from its source', withQuestion({ key: 'q', name: 'Q', type: 'TEXT' }, { dims: [{ key: 'who', kind: 'teacher', source: 'class' }] }), 'dims[0].source', 'invalid_value'],
  ])('reports %s at its JSON path and stores nothing', async (_what, definition, path, code) => {
    const company = await t.company();
    expect(await importErrors(company.id, definition)).toContainEqual({ path, code, message: expect.any(String) });
    expect(await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'pulse' })).toBeNull();
  });

  it('reports every problem of a file at once', async () => {
    const company = await t.company();
    const fields = await importErrors(company.id, { ...withQuestion({ key: 'q', name: '', type: 'SLIDER' }), slug: '-' });
    expect(fields.map((f) => f.path)).toEqual(expect.arrayContaining(['slug', 'sections[0].questions[1].name', 'sections[0].questions[1].type']));
  });
});
