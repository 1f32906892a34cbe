import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CursorMeta, OffsetMeta, ok, successEnvelope } from '../../platform/app/envelope.js';
import { okJsonBody } from '../../platform/app/json-body.js';
import { cursorMeta, offsetMeta, offsetQueryFields, offsetRequest, rejectPageParameter } from '../../platform/app/pagination.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { DIM_PARAM, dimFilters, periodQueryFields } from '../../lib/query-parameters.js';
import { listForms } from '../forms/index.js';
import { describeForm } from './describe-form.js';
import { exportRows } from './export-rows.js';
import { getResponseContext } from './get-response-context.js';
import { listResponses } from './list-responses.js';
import { PanelResponseContext, PanelResponsesForm } from './panel-schemas.js';
import { EXPORT_FORMATS, EXPORT_MEDIA_TYPES, exportStream } from './write-export.js';

const IdParams = (description: string) => Type.Object({ id: Type.String({ description }) });
type IdParams = Static<ReturnType<typeof IdParams>>;
const cut = { additionalProperties: false, patternProperties: { [DIM_PARAM]: Type.String({ maxLength: 200 }) } };

/** The panel's table reads up to 100 rows a page, as /v1 does; it is the same scan. */
const ScanQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    ...periodQueryFields,
  },
  cut,
);
type ScanQuery = Static<typeof ScanQuery>;

const ExportQuery = Type.Object(
  {
    format: Type.Union(EXPORT_FORMATS.map((format) => Type.Literal(format))),
    keys: Type.Optional(Type.Boolean({ default: false, description: 'Options and headers by their keys instead of their labels' })),
    ...periodQueryFields,
  },
  cut,
);
type ExportQuery = Static<typeof ExportQuery>;

const FormsQuery = Type.Object(offsetQueryFields, { additionalProperties: false });

/** The panel's responses (permission responses): the same services as /v1's scan and GET /responses/{id}. */
export async function responsePanelRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const scanDeps = { cursorSecret: ctx.config.secretKey };

  app.get<{ Querystring: Static<typeof FormsQuery> }>(
    '/responses/forms',
    {
      config: { permission: 'responses' },
      schema: {
        operationId: 'listResponseForms',
        tags: ['Responses'],
        summary: "The company's forms, newest first, to pick one whose responses to read",
        querystring: FormsQuery,
        response: { 200: successEnvelope(Type.Array(Type.Ref('FormListItem')), Type.Ref(OffsetMeta)), ...panelErrorResponses() },
      },
    },
    async (request) => {
      const wanted = offsetRequest(request.query);
      const page = await listForms(ctx.db, ctx, { companyId: request.panel.companyId, ...wanted });
      return ok(page.items, offsetMeta(wanted, page));
    },
  );

  app.get<{ Params: IdParams }>(
    '/responses/forms/:id',
    {
      config: { permission: 'responses' },
      schema: {
        operationId: 'getResponsesForm',
        tags: ['Responses'],
        summary: 'A form: its questions, dims and whether it is anonymous',
        params: IdParams('Form id'),
        response: { 200: successEnvelope(PanelResponsesForm), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request) => ok(await describeForm(ctx.db, ctx, { companyId: request.panel.companyId, id: request.params.id })),
  );

  app.get<{ Params: IdParams; Querystring: ScanQuery }>(
    '/responses/forms/:id/scan',
    {
      config: { permission: 'responses' },
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'scanResponses',
        tags: ['Responses'],
        summary: "A page of a form's responses with their answers: the same keyset scan and filters as GET /v1/forms/{id}/responses",
        description: 'Filters: from, to (UTC days, inclusive) and dim.<key>=<value>. meta.total on the first page only.',
        params: IdParams('Form id'),
        querystring: ScanQuery,
        response: { 200: successEnvelope(Type.Array(Type.Ref('Response')), Type.Ref(CursorMeta)), ...panelErrorResponses('NOT_FOUND', 'INVALID_CURSOR', 'PAGE_NOT_SUPPORTED') },
      },
    },
    async (request, reply) => {
      const { cursor, limit = 50, from, to } = request.query;
      // The replica may lag, as for /v1's scan: a response stored a moment ago shows on a later pass.
      const page = await listResponses(ctx.readDb, scanDeps, {
        companyId: request.panel.companyId,
        formId: request.params.id,
        limit,
        cursor,
        includeAnswers: true,
        from,
        to,
        dims: dimFilters(request.query as Record<string, unknown>),
      });
      return reply.type('application/json').send(okJsonBody(page.items, cursorMeta(page, limit)));
    },
  );

  app.get<{ Params: IdParams; Querystring: ExportQuery }>(
    '/responses/forms/:id/export',
    {
      config: { permission: 'responses' },
      schema: {
        operationId: 'exportResponses',
        tags: ['Responses'],
        summary: "A form's filtered responses as one CSV or XLSX file, streamed",
        description:
          'The rows of the scan (same filters, same order), one column per question (choices by label, or by key with keys=true), ' +
          'the dims and the respondent. Streamed as it is read: the header x-export-total gives the rows expected.',
        params: IdParams('Form id'),
        querystring: ExportQuery,
        response: {
          200: {
            description: 'The file',
            content: {
              [EXPORT_MEDIA_TYPES.csv]: { schema: { type: 'string' } },
              [EXPORT_MEDIA_TYPES.xlsx]: { schema: { type: 'string', contentMediaType: EXPORT_MEDIA_TYPES.xlsx } },
            },
          },
          ...panelErrorResponses('NOT_FOUND'),
        },
      },
    },
    async (request, reply) => {
      const { format, keys = false, from, to } = request.query;
      const { header, total, rows } = await exportRows(ctx.readDb, scanDeps, {
        companyId: request.panel.companyId,
        formId: request.params.id,
        from,
        to,
        dims: dimFilters(request.query as Record<string, unknown>),
        keys,
      });
      return reply
        .header('content-type', EXPORT_MEDIA_TYPES[format])
        .header('content-disposition', `attachment; filename="responses.${format}"`)
        .header('x-export-total', String(total))
        .header('cache-control', 'no-store')
        .send(exportStream(format, header, rows));
    },
  );

  app.get<{ Params: IdParams }>(
    '/responses/:id',
    {
      config: { permission: 'responses' },
      schema: {
        operationId: 'getPanelResponse',
        tags: ['Responses'],
        summary: 'One response with its invite and the treatment cases it opened',
        params: IdParams('Response id'),
        response: { 200: successEnvelope(PanelResponseContext), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request) => ok(await getResponseContext(ctx.db, ctx, { companyId: request.panel.companyId, id: request.params.id })),
  );
}
