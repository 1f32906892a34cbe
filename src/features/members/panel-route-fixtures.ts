import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { panelSession } from '../../../test/panel.js';
import { inviteColleague } from './invite-colleague.js';

/** A member of the company (another company's member is a 404 to an intruder's owner). */
const memberOf = async (t: Parameters<RouteFixtures[string]>[0], companyId: string) => (await panelSession(t, { companyId })).user.id;

export const panelRouteFixtures: RouteFixtures = {
  'PUT /members/{userId}': async (t, companyId) => ({ params: { userId: await memberOf(t, companyId) }, body: { permissions: ['forms'], owner: false } }),
  'DELETE /members/{userId}': async (t, companyId) => ({ params: { userId: await memberOf(t, companyId) } }),
  'DELETE /invitations/{invitationId}': async (t, companyId) => {
    const owner = await panelSession(t, { companyId, owner: true });
    const invitation = await inviteColleague(t.ctx.db, t.ctx, {
      companyId,
      email: `fixture-${Date.now()}-${Math.random().toString(36).slice(2)}@school.test`,
      permissions: [],
      actor: { userId: owner.user.id, email: owner.user.email, name: owner.user.name, ip: null },
    });
    return { params: { invitationId: invitation.id } };
  },
};
