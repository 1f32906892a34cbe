import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CURSOR_DEFAULT_LIMIT, cursorMeta, cursorQueryFields, rejectPageParameter } from '../../app/pagination.js';
import { CursorMeta, errorResponses, ok, successEnvelope } from '../../app/envelope.js';
import { Nullable, NullableString, OneOf, Timestamp } from '../../lib/schema-pieces.js';
import { TREATMENT_OUTCOMES } from '../events/catalog.js';
import { getCase, listCases } from './list-cases.js';
import { TREATMENT_ACTIONS, TREATMENT_STATUSES } from './table.js';

const caseFields = {
  id: Type.String(),
  number: Type.Integer({ minimum: 1, description: 'Case number within the company, gapless' }),
  formId: Type.String(),
  formName: Type.String(),
  flowKey: Type.String({ description: 'Key of the flow that opened it' }),
  responseId: Nullable(Type.String({ description: 'null on a case chained after a failed effectiveness check' })),
  chainedFromId: Nullable(Type.String({ description: 'The earlier case whose effectiveness check failed' })),
  status: OneOf(TREATMENT_STATUSES),
  stepIndex: Type.Integer({ minimum: 0 }),
  stepName: Type.String(),
  responsible: Type.String({ description: "The current step's responsible: a person's name or e-mail, or a role" }),
  dueAt: Nullable(Timestamp),
  overdue: Type.Boolean({ description: 'The current step passed its deadline (treatment.overdue was emitted)' }),
  outcome: Nullable(OneOf(TREATMENT_OUTCOMES)),
  reason: NullableString,
  orgUnitId: NullableString,
  orgPath: NullableString,
  openedAt: Timestamp,
  closedAt: Nullable(Timestamp),
  steps: Type.Array(Type.Object({ name: Type.String(), responsible: Type.String(), dueInWorkingDays: Type.Integer({ minimum: 1 }) })),
};

const Treatment = Type.Object(caseFields, { $id: 'Treatment', description: 'A follow-up case; it never carries answers' });
const TreatmentWithHistory = Type.Object(
  {
    ...caseFields,
    history: Type.Array(
      Type.Object({ action: OneOf(TREATMENT_ACTIONS), stepIndex: Type.Integer({ minimum: 0 }), outcome: Nullable(OneOf(TREATMENT_OUTCOMES)), reason: NullableString, at: Timestamp }),
      { description: 'What happened to the case, oldest first' },
    ),
  },
  { $id: 'TreatmentWithHistory' },
);

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
    async (request) => ok(await getCase(app.ctx.db, request.auth.company.id, request.params.id)),
  );
}

export const treatmentSchemas = [Treatment, TreatmentWithHistory];
