import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditedBy } from '../../platform/app/panel/audited-by.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { DIM_PARAM, dimFilters, periodQueryFields } from '../../lib/query-parameters.js';
import { recordAudit } from '../audit/index.js';
import { deleteResponse } from './delete-response.js';
import { getReport } from './get-report.js';
import { getStatistics } from './get-statistics.js';
import type { GroupBy } from './statistics-request.js';

const cut = { additionalProperties: false, patternProperties: { [DIM_PARAM]: Type.String({ maxLength: 200 }) } };
const StatisticsQuery = Type.Object(periodQueryFields, cut);
const ReportQuery = Type.Object(
  { ...periodQueryFields, groupBy: Type.String({ pattern: '^(dim\\.[a-z][a-zA-Z0-9_]{0,39}|orgUnit)$', description: 'dim.<key> or orgUnit' }) },
  cut,
);
const IdParams = (description: string) => Type.Object({ id: Type.String({ description }) });
type IdParams = Static<ReturnType<typeof IdParams>>;

/**
 * The panel's statistics, reports and response deletion (permission responses): the same services
 * as GET /v1/forms/{id}/statistics, /report and `quorum response delete`.
 */
export async function statisticsPanelRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const deps = { scanCeiling: ctx.config.statisticsScanCeiling };

  app.get<{ Params: IdParams; Querystring: Static<typeof StatisticsQuery> }>(
    '/statistics/forms/:id',
    {
      config: { permission: 'responses' },
      schema: {
        operationId: 'getPanelStatistics',
        tags: ['Statistics'],
        summary: "A form's figures for one cut (as GET /v1/forms/{id}/statistics)",
        params: IdParams('Form id'),
        querystring: StatisticsQuery,
        response: { 200: successEnvelope(Type.Ref('Statistics')), ...panelErrorResponses('NOT_FOUND', 'ANONYMITY_SUPPRESSED') },
      },
    },
    async (request) => {
      const { from, to } = request.query;
      // A replica's lag only makes the figures that much older; nothing here is written.
      return ok(
        await getStatistics(ctx.readDb, deps, { companyId: request.panel.companyId, formId: request.params.id, from, to, dims: dimFilters(request.query as Record<string, unknown>) }),
      );
    },
  );

  app.get<{ Params: IdParams; Querystring: Static<typeof ReportQuery> }>(
    '/statistics/forms/:id/report',
    {
      config: { permission: 'responses' },
      schema: {
        operationId: 'getPanelReport',
        tags: ['Statistics'],
        summary: "A form's figures per group, suppressed groups without figures (as GET /v1/forms/{id}/report)",
        params: IdParams('Form id'),
        querystring: ReportQuery,
        response: { 200: successEnvelope(Type.Ref('Report')), ...panelErrorResponses('NOT_FOUND', 'ANONYMITY_SUPPRESSED') },
      },
    },
    async (request) => {
      const { from, to, groupBy } = request.query;
      const grouping: GroupBy = groupBy === 'orgUnit' ? { kind: 'org' } : { kind: 'dim', key: groupBy.slice('dim.'.length) };
      const dims = dimFilters(request.query as Record<string, unknown>);
      return ok(await getReport(ctx.readDb, deps, { companyId: request.panel.companyId, formId: request.params.id, from, to, dims, groupBy: grouping }));
    },
  );

  app.delete<{ Params: IdParams }>(
    '/responses/:id',
    {
      config: { permission: 'responses' },
      schema: {
        operationId: 'deleteResponse',
        tags: ['Responses'],
        summary: 'Delete a response for good; the statistics of its day follow at once (as `quorum response delete`)',
        params: IdParams('Response id'),
        response: { 200: successEnvelope(Type.Object({ id: Type.String(), deleted: Type.Literal(true) })), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      const { id } = request.params;
      await ctx.db.transaction(async (tx) => {
        await deleteResponse(tx, ctx, { companyId, responseId: id });
        await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'response.deleted', details: { responseId: id } });
      });
      return ok({ id, deleted: true as const });
    },
  );
}
