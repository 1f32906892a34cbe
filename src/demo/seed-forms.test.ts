import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { listEntities } from '../features/entities/list-entities.js';
import { resolveEntityRefs } from '../features/entities/resolve-entity.js';
import { DIM_KINDS, QUESTION_TYPES } from '../features/forms/definition/index.js';
import { findFormBySlug } from '../features/forms/find-form.js';
import { listForms } from '../features/forms/list-forms.js';
import { demoSeeders } from './seed-demo.js';
import { seedFormsAndEntities } from './seed-forms.js';

let t: TestApp;
let company: { id: string; name: string; slug: string };
beforeAll(async () => {
  t = await startTestApp();
  company = await t.company('Demo School');
  await seedFormsAndEntities(t.ctx, company);
});
afterAll(async () => t?.close());

describe('demo forms and entities', () => {
  it('is one of the demo seeders', () => {
    expect(demoSeeders).toContain(seedFormsAndEntities);
  });

  it('stores a unit tree (school, campuses, six departments and programmes), courses and teachers', async () => {
    const entities = await listEntities(t.ctx.db, t.ctx, { companyId: company.id });
    const units = entities.filter((e) => e.kind === 'unit');
    const depth = (path: string | null) => path!.split('/').filter(Boolean).length;
    expect(units.map((u) => depth(u.orgPath)).sort()).toEqual([1, 2, 2, 2, 3, 3, 3, 3, 3, 3]);
    expect(entities.filter((e) => e.kind === 'course').length).toBeGreaterThanOrEqual(5);
    expect(entities.filter((e) => e.kind === 'teacher').length).toBeGreaterThanOrEqual(5);
  });

  it('covers every question type and every dim kind', async () => {
    const { items } = await listForms(t.ctx.db, t.ctx, { companyId: company.id, page: 1, limit: 100 });
    const forms = await Promise.all(items.map((item) => findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: item.slug })));
    const questions = forms.flatMap((form) => form!.content.sections.flatMap((s) => s.questions));
    expect(new Set(questions.map((q) => q.type))).toEqual(new Set(QUESTION_TYPES));
    expect(new Set(forms.flatMap((form) => form!.dims.map((d) => d.kind)))).toEqual(new Set(DIM_KINDS));
  });

  it('offers campus options whose keys are unit codes, so the answer-sourced unit dim resolves', async () => {
    const form = (await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'term-evaluation' }))!;
    const campusDim = form.dims.find((d) => d.kind === 'unit')!;
    const question = form.content.sections.flatMap((s) => s.questions).find((q) => q.id === campusDim.questionId)!;
    const refs = await resolveEntityRefs(t.ctx.db, t.ctx, { companyId: company.id, refs: question.options!.map((o) => ({ kind: 'unit' as const, value: o.key })) });
    for (const option of question.options!) expect(refs.get('unit', option.key)).not.toBeNull();
  });
});
