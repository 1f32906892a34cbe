import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, ok, OffsetMeta, successEnvelope } from '../../platform/app/envelope.js';
import { offsetMeta, offsetQueryFields, offsetRequest } from '../../platform/app/pagination.js';
import { getForm } from './get-form.js';
import { listForms } from './list-forms.js';
import { FormDetail, FormListItem } from './schemas.js';

/** Offset pagination of the contract; anything but page and limit is a VALIDATION_ERROR. */
const ListFormsQuery = Type.Object(offsetQueryFields, { additionalProperties: false });

const FormIdParams = Type.Object({ id: Type.String({ description: 'Form id' }) });

export async function formRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof ListFormsQuery> }>(
    '/forms',
    {
      config: { scope: 'surveys:read' },
      schema: {
        operationId: 'listForms',
        tags: ['Forms'],
        summary: 'List forms',
        description: "The company's forms, newest first (createdAt desc, id desc), a page at a time. Scope: surveys:read.",
        querystring: ListFormsQuery,
        response: {
          200: { ...successEnvelope(Type.Array(Type.Ref(FormListItem)), Type.Ref(OffsetMeta)), description: 'A page of forms' },
          ...errorResponses('FORBIDDEN', 'VALIDATION_ERROR'),
        },
      },
    },
    async (request) => {
      const wanted = offsetRequest(request.query);
      const page = await listForms(app.ctx.db, app.ctx, { companyId: request.auth.company.id, ...wanted });
      return ok(page.items, offsetMeta(wanted, page));
    },
  );
  app.get<{ Params: Static<typeof FormIdParams> }>(
    '/forms/:id',
    {
      config: { scope: 'surveys:read' },
      schema: {
        operationId: 'getForm',
        tags: ['Forms'],
        summary: 'Get a form and the structure of its questions',
        description:
          'Sections and questions in order; question ids are the keys of response answers. A form of another company, or none, is 404 NOT_FOUND alike. Scope: surveys:read.',
        params: FormIdParams,
        response: { 200: { ...successEnvelope(Type.Ref(FormDetail)), description: 'The form' }, ...errorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => ok(await getForm(app.ctx.db, app.ctx, { companyId: request.auth.company.id, id: request.params.id })),
  );
}
