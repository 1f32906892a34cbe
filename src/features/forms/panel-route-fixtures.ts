import { createSurvey } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { exportForm } from './export-form.js';

const survey = async (t: Parameters<typeof createSurvey>[0], companyId: string) => ({ params: { id: (await createSurvey(t, companyId)).form.id } });

/** Records of the forms panel routes for the generated permission suite (test/route-fixtures.ts). */
export const panelRouteFixtures: RouteFixtures = {
  'GET /forms/{id}': survey,
  'POST /forms/{id}/close': survey,
  'POST /forms/{id}/reopen': survey,
  'POST /forms/{id}/duplicate': survey,
  'DELETE /forms/{id}': survey,
  'GET /forms/{id}/versions': survey,
  'PUT /forms/{id}': async (t, companyId) => {
    const { form } = await createSurvey(t, companyId);
    return { params: { id: form.id }, body: { definition: await exportForm(t.ctx.db, t.ctx, { companyId, idOrSlug: form.id }) } };
  },
};
