import { addResponses, createSurvey } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';

/** Records of the responses routes for the generated auth suite (test/route-fixtures.ts). */
export const routeFixtures: RouteFixtures = {
  'GET /forms/{id}/responses': async (t, companyId) => {
    const survey = await createSurvey(t, companyId);
    await addResponses(t, survey, 1);
    return { params: { id: survey.form.id } };
  },
  'GET /responses/{id}': async (t, companyId) => {
    const [id] = await addResponses(t, await createSurvey(t, companyId), 1);
    return { params: { id } };
  },
};
