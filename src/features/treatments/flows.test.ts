import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { LOW_RATING_FLOW, respond } from '../../../test/treatments.js';
import { addFlow, listFlows, removeFlow } from './flows.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

async function fieldsOf(promise: Promise<unknown>) {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'VALIDATION_ERROR' });
  return (error as { details: { fields: { path: string; code: string }[] } }).details.fields.map((f) => [f.path, f.code]);
}

describe('flows', () => {
  it('stores the condition against question ids, replaces a flow of the same key, and removes it', async () => {
    const { company } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const flow = await addFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.slug, file: LOW_RATING_FLOW });
    expect(flow.definition.when).toEqual({ questionId: survey.ratingId, lte: 2 });
    const renamed = { ...LOW_RATING_FLOW, name: 'Renamed', when: { any: [{ question: 'rating', lte: 1 }, { question: 'comment', answered: true }] } };
    await addFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.id, file: renamed });
    const flows = await listFlows(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.id });
    expect(flows.map((f) => f.name)).toEqual(['Renamed']);
    await respond(t, survey, 2); // no longer satisfies: 2 > 1 and no comment
    await respond(t, survey, 1);
    expect((await t.ctx.pool.query('SELECT count(*)::int AS n FROM treatments WHERE company_id = $1', [company.id])).rows[0].n).toBe(1);
    await removeFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.id, key: 'low-rating' });
    await respond(t, survey, 1);
    expect((await t.ctx.pool.query('SELECT count(*)::int AS n, max(flow_id::text) AS flow FROM treatments WHERE company_id = $1', [company.id])).rows[0]).toEqual({ n: 1, flow: null });
    await expect(removeFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.id, key: 'low-rating' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('checks the file like a form condition: unknown questions and options, wrong operators, steps', async () => {
    const { company } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const add = (file: unknown) => addFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.id, file });
    expect(await fieldsOf(add({ ...LOW_RATING_FLOW, when: { question: 'nope', lte: 2 } }))).toEqual([['when.question', 'unknown_reference']]);
    expect(await fieldsOf(add({ ...LOW_RATING_FLOW, when: { question: 'rating', lte: 'high' } }))).toEqual([['when.lte', 'invalid_value']]);
    expect(await fieldsOf(add({ ...LOW_RATING_FLOW, when: { question: 'comment', gte: 3 } }))).toEqual([['when.gte', 'not_applicable']]);
    expect(await fieldsOf(add({ ...LOW_RATING_FLOW, when: { all: [{ question: 'rating' }] } }))).toEqual([['when.all[0]', 'required']]);
    expect(await fieldsOf(add({ ...LOW_RATING_FLOW, steps: [] }))).toEqual([['steps', 'required']]);
    expect(await fieldsOf(add({ ...LOW_RATING_FLOW, steps: [{ name: ' ', responsible: 'x', dueInWorkingDays: 0 }] }))).toEqual([
      ['steps[0].name', 'required'],
      ['steps[0].dueInWorkingDays', 'too_small'],
    ]);
    expect(await fieldsOf(add({ ...LOW_RATING_FLOW, extra: 1 }))).toEqual([['extra', 'unknown_field']]);
    expect(await fieldsOf(add({ ...LOW_RATING_FLOW, steps: [], when: { question: 'nope', lte: 1 } }))).toEqual([
      ['steps', 'required'],
      ['when.question', 'unknown_reference'],
    ]);
    const { when: _when, ...noWhen } = LOW_RATING_FLOW;
    expect(await fieldsOf(add(noWhen))).toEqual([['when', 'required']]);
    await expect(addFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: 'no-such-form', file: LOW_RATING_FLOW })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const other = await t.tenant();
    await expect(addFlow(t.ctx.db, t.ctx, { companyId: other.company.id, formIdOrSlug: survey.form.id, file: LOW_RATING_FLOW })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
