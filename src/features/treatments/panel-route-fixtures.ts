import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { createSurvey } from '../../../test/responses.js';
import { caseOfNewResponse, createFlowSurvey, LOW_RATING_FLOW } from '../../../test/treatments.js';
import { closeCase } from './close-case.js';
import { addHoliday } from './holidays.js';

const openCase = async (t: Parameters<RouteFixtures[string]>[0], companyId: string) => ({ params: { id: await caseOfNewResponse(t, companyId) } });

/** Records of the treatments panel routes for the generated permission suite (test/route-fixtures.ts). */
export const panelRouteFixtures: RouteFixtures = {
  'GET /forms/{id}/flows': async (t, companyId) => ({ params: { id: (await createFlowSurvey(t, companyId)).form.id } }),
  'PUT /forms/{id}/flows': async (t, companyId) => ({ params: { id: (await createSurvey(t, companyId)).form.id }, body: { flow: LOW_RATING_FLOW } }),
  'DELETE /forms/{id}/flows/{key}': async (t, companyId) => ({ params: { id: (await createFlowSurvey(t, companyId)).form.id, key: LOW_RATING_FLOW.key } }),
  'DELETE /settings/holidays/{day}': async (t, companyId) => {
    await addHoliday(t.ctx.db, t.ctx, { companyId, day: '2026-12-25', name: 'Natal' });
    return { params: { day: '2026-12-25' } };
  },
  'GET /treatments/{id}': openCase,
  'POST /treatments/{id}/advance': openCase,
  'POST /treatments/{id}/close': async (t, companyId) => ({ ...(await openCase(t, companyId)), body: { outcome: 'other', reason: 'Moved away' } }),
  'POST /treatments/{id}/reopen': async (t, companyId) => {
    const id = await caseOfNewResponse(t, companyId);
    await closeCase(t.ctx.db, t.ctx, { companyId, id, outcome: 'duplicate', reason: 'Fixture' });
    return { params: { id } };
  },
};
