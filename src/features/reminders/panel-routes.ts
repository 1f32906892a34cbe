import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditPanelAct } from '../../platform/app/panel/panel-audit.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { closed, Nullable, OneOf } from '../../lib/schema-pieces.js';
import { clearReminderSchedule } from './clear-schedule.js';
import { REMINDER_CHANNELS } from './schedule-input.js';
import { ReminderSchedule } from './schemas.js';
import { setReminderSchedule } from './set-schedule.js';
import { showReminderSchedules } from './show-schedule.js';

const IdParams = Type.Object({ id: Type.String({ description: 'Form id' }) });
const ChannelParams = Type.Object({ id: Type.String({ description: 'Form id' }), channel: OneOf(REMINDER_CHANNELS) });
// The panel document inlines its schemas (no shared $id).
const Schedule = Type.Object(ReminderSchedule.properties, { title: 'Reminder schedule' });
const { afterDays, maxReminders, localHour, finalDaysBefore } = ReminderSchedule.properties;
const ScheduleBody = Type.Object(
  {
    afterDays,
    maxReminders,
    localHour,
    finalDaysBefore,
    template: Type.Optional(
      Nullable(
        Type.Object(
          { name: Type.String({ minLength: 1, maxLength: 512 }), language: Type.String({ minLength: 2, maxLength: 15 }) },
          { ...closed, description: 'The approved WhatsApp template of the reminders (cloud API); null for e-mail' },
        ),
      ),
    ),
  },
  closed,
);

/**
 * A form's reminder schedules (permission invites: reminders are sends): the services of
 * `quorum reminders show|set|clear`, each change audited; every answer is the form's schedules.
 */
export async function reminderPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  const schedules = async (companyId: string, formId: string) =>
    (await showReminderSchedules(ctx.db, ctx, { companyId, formId })).map(({ formId: _formId, template: _template, ...view }) => view);
  const answer = { 200: successEnvelope(Type.Array(Schedule)) };

  panel.get<{ Params: Static<typeof IdParams> }>(
    '/forms/:id/reminders',
    {
      config: { permission: 'invites' },
      schema: {
        operationId: 'listFormReminders',
        tags: ['Forms'],
        summary: "The form's reminder schedules, one per channel, with their next run and the invites still to remind",
        params: IdParams,
        response: { ...answer, ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => ok(await schedules(request.panel.companyId, request.params.id)),
  );

  panel.put<{ Params: Static<typeof ChannelParams>; Body: Static<typeof ScheduleBody> }>(
    '/forms/:id/reminders/:channel',
    {
      config: { permission: 'invites' },
      schema: {
        operationId: 'setFormReminders',
        tags: ['Forms'],
        summary: 'Set (create or replace) the schedule of one channel; steps already taken stay taken',
        params: ChannelParams,
        body: ScheduleBody,
        response: { ...answer, ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      const { id: formId, channel } = request.params;
      const settings = { ...request.body, template: request.body.template ?? null };
      await ctx.db.transaction(async (tx) => {
        await setReminderSchedule(tx, ctx, { companyId, formId, channel, ...settings });
        await auditPanelAct(tx, ctx, { request, action: 'form.reminders.set', details: { formId, channel, ...settings } });
      });
      return ok(await schedules(companyId, formId));
    },
  );

  panel.delete<{ Params: Static<typeof ChannelParams> }>(
    '/forms/:id/reminders/:channel',
    {
      config: { permission: 'invites' },
      schema: {
        operationId: 'clearFormReminders',
        tags: ['Forms'],
        summary: "Remove one channel's schedule: no further reminders (those already queued still leave)",
        params: ChannelParams,
        response: { ...answer, ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      const { id: formId, channel } = request.params;
      await ctx.db.transaction(async (tx) => {
        await clearReminderSchedule(tx, ctx, { companyId, formId, channel });
        await auditPanelAct(tx, ctx, { request, action: 'form.reminders.cleared', details: { formId, channel } });
      });
      return ok(await schedules(companyId, formId));
    },
  );
}
