import { createSurvey } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { addGoalRule } from './add-goal-rule.js';

/** Records of the goals panel routes for the generated permission suite (test/route-fixtures.ts). */
export const panelRouteFixtures: RouteFixtures = {
  'GET /forms/{id}/goals': async (t, companyId) => ({ params: { id: (await createSurvey(t, companyId)).form.id } }),
  'POST /forms/{id}/goals': async (t, companyId) => ({ params: { id: (await createSurvey(t, companyId)).form.id }, body: { goal: 10 } }),
  'POST /goals/{id}/reset': async (t, companyId) => {
    const { form } = await createSurvey(t, companyId);
    return { params: { id: (await addGoalRule(t.ctx.db, t.ctx, { companyId, form: form.id, goal: 5 })).rule.id } };
  },
};
