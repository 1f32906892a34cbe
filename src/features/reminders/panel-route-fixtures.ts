import { createSurvey } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { setReminderSchedule } from './set-schedule.js';

const SCHEDULE = { afterDays: 3, maxReminders: 2, localHour: 9, finalDaysBefore: null, template: null };

/** Records of the reminders' panel routes for the generated permission suite. */
export const panelRouteFixtures: RouteFixtures = {
  'GET /forms/{id}/reminders': async (t, companyId) => ({ params: { id: (await createSurvey(t, companyId)).form.id } }),
  'PUT /forms/{id}/reminders/{channel}': async (t, companyId) => ({
    params: { id: (await createSurvey(t, companyId)).form.id, channel: 'email' },
    body: { afterDays: 3, maxReminders: 2, localHour: 9, finalDaysBefore: null },
  }),
  'DELETE /forms/{id}/reminders/{channel}': async (t, companyId) => {
    const formId = (await createSurvey(t, companyId)).form.id;
    await setReminderSchedule(t.ctx.db, t.ctx, { companyId, formId, channel: 'email', ...SCHEDULE });
    return { params: { id: formId, channel: 'email' } };
  },
};
