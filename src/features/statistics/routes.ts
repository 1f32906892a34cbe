import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, ok, successEnvelope } from '../../platform/app/envelope.js';
import { DIM_PARAM, dimFilters, periodQueryFields } from '../../lib/query-parameters.js';
import { getReport } from './get-report.js';
import { getStatistics } from './get-statistics.js';
import type { GroupBy } from './statistics-request.js';

const cutOptions = { additionalProperties: false, patternProperties: { [DIM_PARAM]: Type.String({ maxLength: 200 }) } };

const StatisticsQuery = Type.Object(periodQueryFields, cutOptions);
const ReportQuery = Type.Object(
  {
    ...periodQueryFields,
    groupBy: Type.String({
      pattern: '^(dim\\.[a-z][a-zA-Z0-9_]{0,39}|orgUnit)$',
      description: 'dim.<key>: one group per value of the dim; orgUnit: one group per org unit, holding its subtree.',
    }),
  },
  cutOptions,
);
const IdParams = Type.Object({ id: Type.String({ description: 'Form id' }) });

const CUT_DESCRIPTION =
  'Filters, all ANDed: `from` and `to` (whole UTC days, inclusive) and `dim.<key>=<value>` (canonical value, as on the ' +
  'responses scan). Figures come from rollups per UTC day and per month, so the whole form or one dim value costs ' +
  'O(months + days at either end of the period); a response counts from its commit on, read on its own until a sweep ' +
  'folds it into the rollups (every minute), ' +
  'never truncated; two or more dim filters (or a dim filter with another grouping) scan the newest responses up to the ' +
  'ceiling (STATISTICS_SCAN_CEILING, default 200,000), marking truncated: true past it. Every figure is exact except the ' +
  'NUMBER median (see the schema). Questions are those of the form now: removed ones are left out, added ones start at zero.\n\n' +
  'Anonymous forms apply the company anonymity floor (default 5) to the possible authors of the cut: the persons enrolled ' +
  '(not dropped) in its classes for a class-linked form, else its non-revoked invites, and never fewer than its responses ' +
  '(a public-link form: its responses); invites and enrollments carry no day, so a period counts them all. Under ' +
  'it, 409 ANONYMITY_SUPPRESSED with details { floor, authors }. On them a request uses a period or one grouping (one dim, ' +
  'or org unit), not both; a period is widened to blocks of days holding at least the floor of responses; a unit-kind dim ' +
  'is cut with groupBy=orgUnit. Scope: reports:read.';

export async function statisticsRoutes(app: FastifyInstance) {
  const deps = { scanCeiling: app.ctx.config.statisticsScanCeiling };

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof StatisticsQuery> }>(
    '/forms/:id/statistics',
    {
      config: { scope: 'reports:read' },
      schema: {
        operationId: 'getFormStatistics',
        tags: ['Statistics'],
        summary: "A form's figures",
        description: `The figures the panel shows for one cut of the form's responses. ${CUT_DESCRIPTION}`,
        params: IdParams,
        querystring: StatisticsQuery,
        response: {
          200: { ...successEnvelope(Type.Ref('Statistics')), description: 'The figures' },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR', 'ANONYMITY_SUPPRESSED'),
        },
      },
    },
    async (request) => {
      const { from, to } = request.query;
      const dims = dimFilters(request.query as Record<string, unknown>);
      // A replica's lag only makes the figures that much older; nothing here is written.
      return ok(await getStatistics(app.ctx.readDb, deps, { companyId: request.auth.company.id, formId: request.params.id, from, to, dims }));
    },
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof ReportQuery> }>(
    '/forms/:id/report',
    {
      config: { scope: 'reports:read' },
      schema: {
        operationId: 'getFormReport',
        tags: ['Statistics'],
        summary: "A form's figures per group",
        description:
          'The statistics of each group of a grouping, in key order; responses without a value for it are in no group. On an ' +
          'anonymous form a group under the floor is { key, suppressed: true }, and further groups are suppressed until no ' +
          `difference of visible figures (the whole cut, a unit and its subunits) isolates fewer authors than the floor. ${CUT_DESCRIPTION}`,
        params: IdParams,
        querystring: ReportQuery,
        response: {
          200: { ...successEnvelope(Type.Ref('Report')), description: 'The figures per group' },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR', 'ANONYMITY_SUPPRESSED'),
        },
      },
    },
    async (request) => {
      const { from, to, groupBy } = request.query;
      const dims = dimFilters(request.query as Record<string, unknown>);
      const grouping: GroupBy = groupBy === 'orgUnit' ? { kind: 'org' } : { kind: 'dim', key: groupBy.slice('dim.'.length) };
      return ok(
        await getReport(app.ctx.readDb, deps, { companyId: request.auth.company.id, formId: request.params.id, from, to, dims, groupBy: grouping }),
      );
    },
  );
}
