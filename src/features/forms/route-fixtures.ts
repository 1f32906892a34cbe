import { createSurvey } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';

/** Records of the forms routes for the generated auth suite (test/route-fixtures.ts). */
export const routeFixtures: RouteFixtures = {
  'GET /forms/{id}': async (t, companyId) => ({ params: { id: (await createSurvey(t, companyId)).form.id } }),
};
