import { addResponses, createSurvey } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';

/** Records of the statistics panel routes for the generated permission suite (test/route-fixtures.ts). */
export const panelRouteFixtures: RouteFixtures = {
  'GET /statistics/forms/{id}': async (t, companyId) => {
    const survey = await createSurvey(t, companyId);
    await addResponses(t, survey, 1);
    return { params: { id: survey.form.id } };
  },
  'GET /statistics/forms/{id}/report': async (t, companyId) => {
    const survey = await createSurvey(t, companyId);
    await addResponses(t, survey, 1);
    return { params: { id: survey.form.id }, query: 'groupBy=dim.cohortYear' };
  },
  'DELETE /responses/{id}': async (t, companyId) => {
    const [id] = await addResponses(t, await createSurvey(t, companyId), 1);
    return { params: { id } };
  },
};
