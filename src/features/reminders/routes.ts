import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, ok, successEnvelope } from '../../platform/app/envelope.js';
import { ReminderSchedule } from './schemas.js';
import { showReminderSchedules } from './show-schedule.js';

export async function reminderRoutes(app: FastifyInstance) {
  app.get<{ Params: { id: string } }>(
    '/forms/:id/reminders',
    {
      config: { scope: 'surveys:read' },
      schema: {
        operationId: 'listReminderSchedules',
        tags: ['Forms'],
        summary: "Read a form's reminder schedules and their next run (extension)",
        description:
          'One entry per channel with a schedule ([] when none); nextRunAt is when the sweep next reminds someone (null: nobody ' +
          "left). Read-only: schedules are set in the panel (the form's Reminders tab) or by the operator (quorum reminders set). Another company's form, or none, is " +
          '404 NOT_FOUND alike. Scope: surveys:read.',
        params: Type.Object({ id: Type.String({ description: 'Form id' }) }),
        response: {
          200: { ...successEnvelope(Type.Array(Type.Ref(ReminderSchedule))), description: "The form's schedules" },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND'),
        },
      },
    },
    async (request) => {
      const views = await showReminderSchedules(app.ctx.db, app.ctx, { companyId: request.auth.company.id, formId: request.params.id });
      return ok(views.map(({ formId: _formId, template: _template, ...view }) => view));
    },
  );
}
