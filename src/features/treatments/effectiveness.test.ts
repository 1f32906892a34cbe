import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { addResponses, createSurvey, SURVEY, type Survey } from '../../../test/responses.js';
import { LOW_RATING_FLOW } from '../../../test/treatments.js';
import { findFormBySlug } from '../forms/find-form.js';
import { importForm } from '../forms/import-form.js';
import { advanceCase } from './advance-case.js';
import { effectivenessSweep } from './check-effectiveness.js';
import { closeCase } from './close-case.js';
import { addFlow } from './flows.js';
import { reopenCase } from './reopen-case.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const rate = (survey: Survey, rating: number, externalId: string | null, at: string) =>
  addResponses(t, survey, 1, { at, answers: { [survey.ratingId]: rating }, respondent: externalId ? { externalId } : null });

async function casesOf(companyId: string) {
  const { rows } = await t.ctx.pool.query(
    'SELECT id, number, response_id, chained_from_id, status, check_due_at, check_done_at FROM treatments WHERE company_id = $1 ORDER BY number',
    [companyId],
  );
  return rows;
}

async function resolve(companyId: string, id: string, at: string) {
  t.clock.set(at);
  await advanceCase(t.ctx.db, t.ctx, { companyId, id });
  await advanceCase(t.ctx.db, t.ctx, { companyId, id });
}

describe('effectiveness check by date', () => {
  it('opens a chained case (responseId null) when the respondent answered again below the bar, once', async () => {
    const { company } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const file = { ...LOW_RATING_FLOW, effectivenessCheck: { afterWorkingDays: 5, failsWhen: { question: 'rating', lte: 3 } } };
    await addFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.id, file });
    await rate(survey, 1, 'S-1', '2026-03-02T09:00:00.000Z');
    await rate(survey, 2, 'S-2', '2026-03-02T09:00:00.000Z');
    await rate(survey, 1, null, '2026-03-02T09:00:00.000Z'); // anonymous: nobody to check on
    const [first, second, anonymous] = await casesOf(company.id);
    for (const c of [first, second, anonymous]) await resolve(company.id, c.id, '2026-03-03T12:00:00.000Z');
    const armed = await casesOf(company.id);
    expect(armed.map((c) => c.check_due_at)).toEqual([new Date('2026-03-10T23:59:59.999Z'), new Date('2026-03-10T23:59:59.999Z'), null]);

    await rate(survey, 3, 'S-1', '2026-03-05T09:00:00.000Z'); // no new case (3 > 2), but fails the check (≤ 3)
    await rate(survey, 5, 'S-2', '2026-03-05T09:00:00.000Z');
    t.clock.set('2026-03-10T23:00:00.000Z');
    expect(await effectivenessSweep.sweep(t.ctx)).toBe(0);
    t.clock.set('2026-03-11T08:00:00.000Z');
    expect(await effectivenessSweep.sweep(t.ctx)).toBe(2);
    expect(await effectivenessSweep.sweep(t.ctx)).toBe(0);
    const after = await casesOf(company.id);
    expect(after).toHaveLength(4);
    expect(after[3]).toMatchObject({ number: 4, response_id: null, chained_from_id: first.id, status: 'open' });
    const { rows } = await t.ctx.pool.query("SELECT data FROM events WHERE company_id = $1 AND type = 'treatment.opened' AND data->>'treatmentId' = $2", [company.id, after[3].id]);
    expect(rows[0].data).toMatchObject({ responseId: null, number: 4, stepIndex: 0, status: 'open', dueAt: '2026-03-13T23:59:59.999Z' });
  });

  it('arms only on resolved closes, and a reopened case is checked anew after its next resolution', async () => {
    const { company } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    await addFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.id, file: { ...LOW_RATING_FLOW, effectivenessCheck: { afterWorkingDays: 1 } } });
    await rate(survey, 1, 'S-1', '2026-03-02T09:00:00.000Z');
    const [c] = await casesOf(company.id);
    await closeCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id, outcome: 'unfounded', reason: 'Not upheld' });
    expect((await casesOf(company.id))[0].check_due_at).toBeNull();
    await reopenCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id });
    await resolve(company.id, c.id, '2026-03-03T12:00:00.000Z');
    expect((await casesOf(company.id))[0].check_due_at).toEqual(new Date('2026-03-04T23:59:59.999Z'));
    // The respondent's next low rating opens its own case: the check does not chain a second one for it
    await rate(survey, 1, 'S-1', '2026-03-04T09:00:00.000Z');
    t.clock.set('2026-03-05T00:00:00.000Z');
    expect(await effectivenessSweep.sweep(t.ctx)).toBe(1);
    expect((await casesOf(company.id)).map((x) => [x.number, x.chained_from_id])).toEqual([[1, null], [2, null]]);
  });
});

describe('effectiveness check by a later response to a named form', () => {
  it("opens a chained case in the later response's transaction when it fails; the next response decides nothing", async () => {
    const { company } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: { ...SURVEY, slug: 'follow-up', name: 'Follow-up' } });
    const followForm = (await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'follow-up' }))!;
    const follow: Survey = { ...survey, form: followForm, ratingId: followForm.content.sections[0].questions[0].id };
    const file = { ...LOW_RATING_FLOW, effectivenessCheck: { form: 'follow-up', failsWhen: { question: 'rating', lte: 2 } } };
    await addFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.slug, file });
    await rate(survey, 1, 'S-1', '2026-03-02T09:00:00.000Z');
    await rate(survey, 1, 'S-2', '2026-03-02T09:00:00.000Z');
    const [first, second] = await casesOf(company.id);
    await rate(follow, 1, 'S-1', '2026-03-02T10:00:00.000Z'); // before closing: decides nothing
    expect(await casesOf(company.id)).toHaveLength(2);
    await resolve(company.id, first.id, '2026-03-03T12:00:00.000Z');
    await resolve(company.id, second.id, '2026-03-03T12:00:00.000Z');
    await rate(follow, 2, 'S-1', '2026-03-04T09:00:00.000Z'); // fails
    await rate(follow, 5, 'S-2', '2026-03-04T09:00:00.000Z'); // passes
    await rate(follow, 1, 'S-2', '2026-03-05T09:00:00.000Z'); // already decided
    const after = await casesOf(company.id);
    expect(after.map((x) => [x.number, x.response_id === null, x.chained_from_id])).toEqual([
      [1, false, null],
      [2, false, null],
      [3, true, first.id],
    ]);
    expect(after.slice(0, 2).every((x) => x.check_done_at !== null)).toBe(true);
  });

  it('refuses a check naming an unknown form or an invalid condition', async () => {
    const { company } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const add = (effectivenessCheck: unknown) => addFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.id, file: { ...LOW_RATING_FLOW, effectivenessCheck } });
    const fields = async (check: unknown) => ((await add(check).catch((e: unknown) => e)) as { details: { fields: { path: string; code: string }[] } }).details.fields.map((f) => [f.path, f.code]);
    expect(await fields({ form: 'nope', failsWhen: { question: 'rating', lte: 2 } })).toEqual([['effectivenessCheck.form', 'unknown_reference']]);
    expect(await fields({ form: survey.form.slug, failsWhen: { question: 'nope', lte: 2 } })).toEqual([['effectivenessCheck.failsWhen.question', 'unknown_reference']]);
    expect(await fields({ afterWorkingDays: 0 })).toEqual([['effectivenessCheck', expect.any(String)]]);
  });
});
