import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CURSOR_DEFAULT_LIMIT, cursorMeta, cursorQueryFields, rejectPageParameter } from '../../platform/app/pagination.js';
import { CursorMeta, errorResponses, ok, successEnvelope } from '../../platform/app/envelope.js';
import { OneOf } from '../../lib/schema-pieces.js';
import { getCase, listCases } from './list-cases.js';
import { Treatment, TreatmentWithHistory } from './schemas.js';
import { TREATMENT_STATUSES } from './table.js';

const ListQuery = Type.Object(
  {
    ...cursorQueryFields,
    status: Type.Optional(OneOf(TREATMENT_STATUSES)),
    formId: Type.Optional(Type.String({ description: 'Only cases of this form' })),
  },
  { additionalProperties: false },
);

export async function treatmentRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/treatments',
    {
      config: { scope: 'treatments:read' },
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'listTreatments',
        tags: ['Treatments'],
        summary: 'List follow-up cases (extension)',
        description:
          'Newest first (number desc), filtered by status and formId. Cursor form: the first page carries meta.total; a cursor of ' +
          'another company or other filters is 400 INVALID_CURSOR; page is 400 PAGE_NOT_SUPPORTED. Scope: treatments:read.',
        querystring: ListQuery,
        response: {
          200: { ...successEnvelope(Type.Array(Type.Ref(Treatment)), Type.Ref(CursorMeta)), description: 'A page of cases' },
          ...errorResponses('FORBIDDEN', 'VALIDATION_ERROR', 'INVALID_CURSOR', 'PAGE_NOT_SUPPORTED'),
        },
      },
    },
    async (request) => {
      const { cursor, limit = CURSOR_DEFAULT_LIMIT, status, formId } = request.query;
      const page = await listCases(app.ctx.db, { cursorSecret: app.ctx.config.secretKey }, { companyId: request.auth.company.id, limit, cursor, status, formId });
      return ok(page.items, cursorMeta(page, limit));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/treatments/:id',
    {
      config: { scope: 'treatments:read' },
      schema: {
        operationId: 'getTreatment',
        tags: ['Treatments'],
        summary: 'Get one follow-up case with its history (extension)',
        description: "Another company's case, or none, is 404 NOT_FOUND alike. Scope: treatments:read.",
        params: Type.Object({ id: Type.String({ description: 'Case id, as in the treatment.* events' }) }),
        response: {
          200: { ...successEnvelope(Type.Ref(TreatmentWithHistory)), description: 'The case and its history' },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND'),
        },
      },
    },
    async (request) => ok(await getCase(app.ctx.db, app.ctx, { companyId: request.auth.company.id, id: request.params.id })),
  );
}
