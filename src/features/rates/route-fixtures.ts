import { createSurvey } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';

/** The rates route for the generated auth suite (test/route-fixtures.ts): any form of the company. */
export const routeFixtures: RouteFixtures = {
  'GET /forms/{id}/response-rates': async (t, companyId) => ({ params: { id: (await createSurvey(t, companyId)).form.id } }),
};
