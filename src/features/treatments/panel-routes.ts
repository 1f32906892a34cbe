import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditPanelAct } from '../../platform/app/panel/panel-audit.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { closed } from '../../lib/schema-pieces.js';
import { addHoliday, listHolidays, removeHoliday } from './holidays.js';

const Day = Type.String({ maxLength: 10, description: 'YYYY-MM-DD' });
const Holiday = Type.Object({ day: Type.String(), name: Type.String() });
const HolidayBody = Type.Object({ day: Day, name: Type.String({ maxLength: 200 }) }, closed);
const DayParams = Type.Object({ day: Day });
const Moved = { movedDeadlines: Type.Integer({ description: 'Open follow-up steps whose deadline moved' }) };

/** The company's own holidays (skipped by follow-up deadlines): the services of `quorum holiday`. */
export async function holidayPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  const audit = (request: FastifyRequest, tx: DbOrTx, details: Record<string, unknown>) => auditPanelAct(tx, ctx, { request, action: 'settings.changed', details: { section: 'holidays', ...details } });

  panel.get(
    '/settings/holidays',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'listHolidays',
        summary: 'The company’s holidays, oldest first',
        tags: ['settings'],
        response: { 200: successEnvelope(Type.Array(Holiday)), ...panelErrorResponses() },
      },
    },
    async (request) => ok(await listHolidays(ctx.db, ctx, { companyId: request.panel.companyId })),
  );

  panel.post(
    '/settings/holidays',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'addHoliday',
        summary: 'Add (or rename) a holiday',
        description: 'Deadlines of open follow-up steps move at once. Audited as settings.changed.',
        tags: ['settings'],
        body: HolidayBody,
        response: { 200: successEnvelope(Type.Object({ ...Holiday.properties, ...Moved })), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof HolidayBody> }>) =>
      ok(
        await ctx.db.transaction(async (tx) => {
          const added = await addHoliday(tx, ctx, { companyId: request.panel.companyId, ...request.body });
          await audit(request, tx, { added: { day: added.day, name: added.name } });
          return added;
        }),
      ),
  );

  panel.delete(
    '/settings/holidays/:day',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'removeHoliday',
        summary: 'Remove a holiday',
        description: 'Deadlines of open follow-up steps move at once. A day that is not a holiday of the company is 404. Audited as settings.changed.',
        tags: ['settings'],
        params: DayParams,
        response: { 200: successEnvelope(Type.Object({ day: Type.String(), ...Moved })), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request: FastifyRequest<{ Params: Static<typeof DayParams> }>) =>
      ok(
        await ctx.db.transaction(async (tx) => {
          const removed = await removeHoliday(tx, ctx, { companyId: request.panel.companyId, day: request.params.day });
          await audit(request, tx, { removed: { day: removed.day } });
          return removed;
        }),
      ),
  );
}
