import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { suppress } from './suppressions.js';

/** Records of the suppression panel routes for the generated permission suite (test/route-fixtures.ts). */
export const panelRouteFixtures: RouteFixtures = {
  'DELETE /suppressions/{address}': async (t, companyId) => {
    await suppress(t.ctx.db, t.ctx, { companyId, addresses: ['o+fixture@school.test'], reason: 'manual' });
    return { params: { address: 'o+fixture@school.test' } };
  },
};
