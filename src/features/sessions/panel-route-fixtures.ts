import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { panelSession } from '../../../test/panel.js';
import { sessions } from './table.js';
import { eq } from 'drizzle-orm';

export const panelRouteFixtures: RouteFixtures = {
  // a session of someone in the company: not the intruder's own, so signing it out is a 404 to them
  'DELETE /account/sessions/{sessionId}': async (t, companyId) => {
    const member = await panelSession(t, { companyId });
    const [row] = await t.ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, member.user.id));
    return { params: { sessionId: row.id } };
  },
};
