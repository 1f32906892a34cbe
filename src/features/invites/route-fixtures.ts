import { createSurvey } from '../../../test/responses.js';
import type { RouteFixture, RouteFixtures } from '../../../test/route-fixtures.js';
import { createInvite } from './create-invite.js';

const aForm: RouteFixture = async (t, companyId) => ({ params: { id: (await createSurvey(t, companyId)).form.id } });

/** Records of the invites routes for the generated auth suite (test/route-fixtures.ts), with the body each POST needs. */
export const routeFixtures: RouteFixtures = {
  'GET /forms/{id}/invites': aForm,
  'POST /forms/{id}/invites': async (t, companyId) => ({ ...(await aForm(t, companyId)), body: { email: 'fixture@school.edu' } }),
  'POST /forms/{id}/invites/send': async (t, companyId) => ({ ...(await aForm(t, companyId)), body: { channel: 'email' } }),
  'POST /invites/{id}/revoke': async (t, companyId) => {
    const survey = await createSurvey(t, companyId);
    return { params: { id: (await createInvite(t.ctx.db, t.ctx, { companyId, formId: survey.form.id, email: 'fixture@school.edu' })).id } };
  },
};
