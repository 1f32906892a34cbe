import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { addHoliday } from './holidays.js';

/** Records of the treatments panel routes for the generated permission suite (test/route-fixtures.ts). */
export const panelRouteFixtures: RouteFixtures = {
  'DELETE /settings/holidays/{day}': async (t, companyId) => {
    await addHoliday(t.ctx.db, t.ctx, { companyId, day: '2026-12-25', name: 'Natal' });
    return { params: { day: '2026-12-25' } };
  },
};
