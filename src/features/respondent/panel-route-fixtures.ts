import { createSurvey, SURVEY } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';

/** Records of the respondent feature's panel route (the builder's preview) for the generated permission suite. */
export const panelRouteFixtures: RouteFixtures = {
  // the survey's own file, ids left out: kept by key, as a save would keep them
  'POST /forms/{id}/preview': async (t, companyId) => ({ params: { id: (await createSurvey(t, companyId)).form.id }, body: { definition: SURVEY } }),
};
