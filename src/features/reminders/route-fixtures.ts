import { createSurvey } from '../../../test/responses.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { setReminderSchedule } from './set-schedule.js';

/** Records of the reminders route for the generated auth suite (test/route-fixtures.ts). */
export const routeFixtures: RouteFixtures = {
  'GET /forms/{id}/reminders': async (t, companyId) => {
    const { form } = await createSurvey(t, companyId);
    await setReminderSchedule(t.ctx.db, t.ctx, { companyId, formId: form.id, channel: 'email', afterDays: 3, maxReminders: 2, localHour: 9, finalDaysBefore: 1, template: null });
    return { params: { id: form.id } };
  },
};
