import { createSurvey } from '../../../test/responses.js';
import type { RouteFixture, RouteFixtures } from '../../../test/route-fixtures.js';
import { createInvite } from './create-invite.js';

const aForm: RouteFixture = async (t, companyId) => ({ params: { id: (await createSurvey(t, companyId)).form.id } });
const anInvite: RouteFixture = async (t, companyId) => {
  const survey = await createSurvey(t, companyId);
  return { params: { id: (await createInvite(t.ctx.db, t.ctx, { companyId, formId: survey.form.id, email: 'fixture@school.edu' })).id } };
};

/** Records of the invites panel routes for the generated permission suite (test/route-fixtures.ts), with the body each POST needs. */
export const panelRouteFixtures: RouteFixtures = {
  'GET /forms/{id}/invites': aForm,
  'GET /forms/{id}/invites/counts': aForm,
  'POST /forms/{id}/invites': async (t, companyId) => ({ ...(await aForm(t, companyId)), body: { email: 'fixture@school.edu' } }),
  'POST /forms/{id}/invites/send': async (t, companyId) => ({ ...(await aForm(t, companyId)), body: { channel: 'email' } }),
  'POST /forms/{id}/invites/revoke': async (t, companyId) => {
    const invite = await createInvite(t.ctx.db, t.ctx, { companyId, formId: (await createSurvey(t, companyId)).form.id, email: 'fixture@school.edu' });
    return { params: { id: invite.formId }, body: { inviteIds: [invite.id] } };
  },
  'POST /forms/{id}/invites/import': async (t, companyId) => ({ ...(await aForm(t, companyId)), body: { columns: ['email'], rows: [{ line: 2, cells: ['fixture@school.edu'] }] } }),
  'GET /invites/{id}/timeline': anInvite,
  'POST /invites/{id}/revoke': anInvite,
};
