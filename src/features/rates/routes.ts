import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, ok, successEnvelope } from '../../platform/app/envelope.js';
import { getResponseRates } from './get-response-rates.js';

const IdParams = Type.Object({ id: Type.String({ description: 'Form id' }) });

export async function ratesRoutes(app: FastifyInstance) {
  app.get<{ Params: Static<typeof IdParams> }>(
    '/forms/:id/response-rates',
    {
      config: { scope: 'reports:read' },
      schema: {
        operationId: 'getFormResponseRates',
        tags: ['Statistics'],
        summary: "A form's response rates per roster group (extension)",
        description:
          "How far the form's non-revoked invites got (invited, sent, delivered, opened, started, responded) and each stage's " +
          'rate, overall and per class, class group, course, teacher and org unit subtree, current to the moment. An invite ' +
          'belongs to the roster person with its externalId and counts for each class that person is enrolled in (not ' +
          'dropped). The figures count invites, never answers, so no group is suppressed under the anonymity floor: a rate ' +
          'reveals nothing of what anyone answered. Scope: reports:read.',
        params: IdParams,
        response: {
          200: { ...successEnvelope(Type.Ref('ResponseRates')), description: 'The counts and rates' },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND'),
        },
      },
    },
    // The primary, not the replica: the figures are meant to be current to the moment.
    async (request) => ok(await getResponseRates(app.ctx.db, app.ctx, { companyId: request.auth.company.id, formId: request.params.id })),
  );
}
