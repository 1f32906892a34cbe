import { createStatsSurvey } from '../../../test/statistics.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';

/** Records of the statistics routes for the generated auth suite (test/route-fixtures.ts); a report needs its groupBy. */
export const routeFixtures: RouteFixtures = {
  'GET /forms/{id}/statistics': async (t, companyId) => ({ params: { id: (await createStatsSurvey(t, companyId)).form.id } }),
  'GET /forms/{id}/report': async (t, companyId) => ({ params: { id: (await createStatsSurvey(t, companyId)).form.id }, query: 'groupBy=dim.course' }),
};
