import type { TestApp } from './harness.js';
import { addResponses, createSurvey, type Survey } from './responses.js';
import { addFlow } from '../src/features/treatments/flows.js';
import { updateCompanySettings, type SettingsPatch } from '../src/features/companies/company-settings.js';

/** A complaint flow on SURVEY: a rating of 2 or less opens a case of two steps (2 and 3 working days). */
export const LOW_RATING_FLOW = {
  key: 'low-rating',
  name: 'Low rating follow-up',
  when: { question: 'rating', lte: 2 },
  steps: [
    { name: 'Call the respondent', responsible: 'coordinator', dueInWorkingDays: 2 },
    { name: 'Report back', responsible: 'ana@school.edu', dueInWorkingDays: 3 },
  ],
};

/** SURVEY with LOW_RATING_FLOW in the company, its settings patched first (time zone, country). */
export async function createFlowSurvey(t: TestApp, companyId: string, settings: SettingsPatch = {}): Promise<Survey> {
  if (Object.keys(settings).length > 0) await updateCompanySettings(t.ctx.db, t.ctx, { companyId, patch: settings });
  const survey = await createSurvey(t, companyId);
  await addFlow(t.ctx.db, t.ctx, { companyId, formIdOrSlug: survey.form.id, file: LOW_RATING_FLOW });
  return survey;
}

/** One response rated `rating` at `at`; returns its id. */
export async function respond(t: TestApp, survey: Survey, rating: number, at?: string): Promise<string> {
  const [id] = await addResponses(t, survey, 1, { at, answers: { [survey.ratingId]: rating } });
  return id;
}

/** The id of a case opened by a low rating on a new flow survey of the company. */
export async function caseOfNewResponse(t: TestApp, companyId: string): Promise<string> {
  const survey = await createFlowSurvey(t, companyId);
  const responseId = await respond(t, survey, 1);
  const { rows } = await t.ctx.pool.query<{ id: string }>('SELECT id FROM treatments WHERE response_id = $1', [responseId]);
  return rows[0].id;
}
