import { caseOfNewResponse } from '../../../test/treatments.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';

/** Records of the treatments routes for the generated auth suite (test/route-fixtures.ts). */
export const routeFixtures: RouteFixtures = {
  'GET /treatments/{id}': async (t, companyId) => ({ params: { id: await caseOfNewResponse(t, companyId) } }),
};
