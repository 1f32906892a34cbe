import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { findForm } from '../forms/find-form.js';
import { recordResponse } from './record-response.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('recordResponse', () => {
  it('stores a finalized response created now, with the respondent in all four fields, and counts it on the form', async () => {
    const company = await t.company();
    const survey = await createSurvey(t, company.id);
    t.clock.set('2026-03-05T10:00:00.000Z');
    const row = await t.ctx.db.transaction((tx) => recordResponse(tx, t.ctx, { form: survey.form, answers: { [survey.ratingId]: 3 }, respondent: { email: 'a@example.edu' } }));
    expect(row).toMatchObject({
      companyId: company.id,
      formId: survey.form.id,
      respondent: { name: null, email: 'a@example.edu', phone: null, externalId: null },
      dims: {},
      orgSource: 'none',
      createdAt: new Date('2026-03-05T10:00:00.000Z'),
      completedAt: new Date('2026-03-05T10:00:00.000Z'),
    });
    expect((await findForm(t.ctx.db, t.ctx, { companyId: company.id, id: survey.form.id }))!.responseCount).toBe(1);
  });

  it('refuses answers that do not fit the form and dims the form does not declare', async () => {
    const company = await t.company();
    const survey = await createSurvey(t, company.id);
    const input = { form: survey.form, answers: { [survey.commentId]: 42 }, dims: { campus: 'north' } };
    const error = await t.ctx.db.transaction((tx) => recordResponse(tx, t.ctx, input)).catch((err) => err);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details.fields.map((f: { path: string; code: string }) => `${f.path}:${f.code}`).sort()).toEqual(
      [`answers.${survey.commentId}:invalid_type`, `answers.${survey.ratingId}:required`, 'dims.campus:unknown_field'].sort(),
    );
    expect((await t.ctx.pool.query('SELECT count(*)::int AS n FROM responses WHERE form_id = $1', [survey.form.id])).rows[0].n).toBe(0);
  });
});
