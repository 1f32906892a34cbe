import { addResponses, createSurvey } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';

const formFixture = async (t: Parameters<RouteFixtures[string]>[0], companyId: string) => {
  const survey = await createSurvey(t, companyId);
  await addResponses(t, survey, 1);
  return { params: { id: survey.form.id } };
};

/** Records of the responses panel routes for the generated permission suite (test/route-fixtures.ts). */
export const panelRouteFixtures: RouteFixtures = {
  'GET /responses/forms/{id}': formFixture,
  'GET /responses/forms/{id}/scan': formFixture,
  'GET /responses/forms/{id}/export': async (t, companyId) => ({ ...(await formFixture(t, companyId)), query: 'format=csv' }),
  'GET /responses/{id}': async (t, companyId) => {
    const [id] = await addResponses(t, await createSurvey(t, companyId), 1);
    return { params: { id } };
  },
};
