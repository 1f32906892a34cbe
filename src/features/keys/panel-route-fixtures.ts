import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { createKey } from './create-key.js';

/** Records of the keys panel routes for the generated permission suite (test/route-fixtures.ts). */
export const panelRouteFixtures: RouteFixtures = {
  'POST /keys/{id}/revoke': async (t, companyId) => {
    const { key } = await createKey(t.ctx.db, t.ctx, { companyId, name: 'fixture key', scopes: [] });
    return { params: { id: key.id } };
  },
};
