import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CURSOR_DEFAULT_LIMIT, cursorMeta, cursorQueryFields, rejectPageParameter } from '../../platform/app/pagination.js';
import { CursorMeta, errorResponses, ok, successEnvelope } from '../../platform/app/envelope.js';
import { okJsonBody } from '../../platform/app/json-body.js';
import { DIM_PARAM, dimFilters, periodQueryFields } from '../../lib/query-parameters.js';
import { getResponse } from './get-response.js';
import { listResponses } from './list-responses.js';
import { ResponseItem, ResponseRecord } from './schemas.js';

const ListResponsesQuery = Type.Object(
  {
    ...cursorQueryFields,
    include: Type.Optional(Type.Literal('answers', { description: 'answers adds the answers field to every item.' })),
    ...periodQueryFields,
  },
  {
    additionalProperties: false,
    // OpenAPI has no pattern-named parameters: dim.<key> is described in the operation's description.
    patternProperties: { [DIM_PARAM]: Type.String() },
  },
);

const IdParams = (description: string) => Type.Object({ id: Type.String({ description }) });

export async function responseRoutes(app: FastifyInstance) {
  app.get<{ Params: Static<ReturnType<typeof IdParams>>; Querystring: Static<typeof ListResponsesQuery> }>(
    '/forms/:id/responses',
    {
      config: { scope: 'surveys:read' },
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'listFormResponses',
        tags: ['Responses'],
        summary: "Scan a form's responses",
        description:
          'Newest first (createdAt desc, id desc), a page at a time with cursors. The first page (no cursor) carries meta.total, ' +
          'counted when the scan starts; later pages pass meta.nextCursor as cursor, unchanged, with the same filters ' +
          '(include and limit may change). A response created during a scan does not appear in that pass; no row is seen twice or ' +
          'skipped. A cursor that is unreadable, of another company or used with other filters is 400 INVALID_CURSOR: restart ' +
          'without cursor. page is refused with 400 PAGE_NOT_SUPPORTED.\n\n' +
          'Filters, all ANDed: `from` and `to` (whole UTC days, inclusive), and any number of `dim.<key>=<value>` parameters ' +
          '(for example `dim.course=<course id>&dim.cohortYear=2026`): the value is compared as a string with the canonical stored ' +
          'value (an entity id, not its code; a number as its decimal text; a date as YYYY-MM-DD); a key the form does not declare ' +
          'matches nothing. Any other parameter is 400 VALIDATION_ERROR. Scope: surveys:read.\n\n' +
          'Files: there is no CSV or XLSX export under /v1. Every /v1 answer is the JSON envelope (spec: Envelope), and this scan ' +
          'already gives integrators every row with the same filters and order; the management panel exports the same scan as CSV ' +
          'or XLSX for people.',
        params: IdParams('Form id'),
        querystring: ListResponsesQuery,
        response: {
          200: { ...successEnvelope(Type.Array(Type.Ref(ResponseItem)), Type.Ref(CursorMeta)), description: 'A page of responses' },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR', 'INVALID_CURSOR', 'PAGE_NOT_SUPPORTED'),
        },
      },
    },
    async (request, reply) => {
      const { cursor, limit = CURSOR_DEFAULT_LIMIT, include, from, to } = request.query;
      // The replica may lag: a page is a scan of stored answers (bounded by the insertion sequence taken on its first page, which a
      // replica applies in commit order like the primary), so a response stored a moment ago shows on a later pass.
      const page = await listResponses(app.ctx.readDb, { cursorSecret: app.ctx.config.secretKey }, {
        companyId: request.auth.company.id,
        formId: request.params.id,
        limit,
        cursor,
        includeAnswers: include === 'answers',
        from,
        to,
        dims: dimFilters(request.query as Record<string, unknown>),
      });
      // The items come as JSON text from Postgres (response-json.ts, itemJson).
      return reply.type('application/json').send(okJsonBody(page.items, cursorMeta(page, limit)));
    },
  );

  app.get<{ Params: Static<ReturnType<typeof IdParams>> }>(
    '/responses/:id',
    {
      config: { scope: 'surveys:read' },
      schema: {
        operationId: 'getResponse',
        tags: ['Responses'],
        summary: 'Get one response',
        description:
          'The full record: the Response with its answers always, plus inviteId, orgUnitId, orgPath and orgSource. ' +
          "Another company's response, or none, is 404 NOT_FOUND alike. Scope: surveys:read.",
        params: IdParams('Response id, as in GET /forms/{id}/responses or the response.created event'),
        response: {
          200: { ...successEnvelope(Type.Ref(ResponseRecord)), description: 'The response' },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND'),
        },
      },
    },
    async (request) => ok(await getResponse(app.ctx.db, app.ctx, { companyId: request.auth.company.id, id: request.params.id })),
  );
}
