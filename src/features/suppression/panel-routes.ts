import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OffsetMeta, ok, successEnvelope } from '../../platform/app/envelope.js';
import { offsetMeta, offsetQueryFields, offsetRequest } from '../../platform/app/pagination.js';
import { auditPanelAct } from '../../platform/app/panel/panel-audit.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { ApiError } from '../../lib/errors.js';
import { OneOf, closed } from '../../lib/schema-pieces.js';
import { SUPPRESSION_REASONS } from './reasons.js';
import { addSuppression, listSuppressions, unsuppress } from './suppressions.js';

const Suppression = Type.Object({ address: Type.String(), reason: OneOf(SUPPRESSION_REASONS), createdAt: Type.String() });
const ListQuery = Type.Object({ ...offsetQueryFields, search: Type.Optional(Type.String({ maxLength: 320, description: 'Only addresses containing this text (any case)' })) }, closed);
const AddBody = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 320 })),
    phone: Type.Optional(Type.String({ maxLength: 40, description: "E.164, or national in the company's default country" })),
    reason: OneOf(SUPPRESSION_REASONS),
  },
  closed,
);
const AddressParams = Type.Object({ address: Type.String({ maxLength: 320, description: 'The address as listed (normalised)' }) });

/** The company's suppression list: the services of `quorum suppression`. */
export async function suppressionPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;

  panel.get(
    '/suppressions',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'listSuppressions',
        summary: 'The suppression list, newest first',
        tags: ['settings'],
        querystring: ListQuery,
        response: { 200: successEnvelope(Type.Array(Suppression), Type.Ref(OffsetMeta)), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Querystring: Static<typeof ListQuery> }>) => {
      const page = offsetRequest(request.query);
      const result = await listSuppressions(ctx.db, ctx, { companyId: request.panel.companyId, search: request.query.search, page });
      return ok(result.items, offsetMeta(page, result));
    },
  );

  panel.post(
    '/suppressions',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'addSuppression',
        summary: 'Suppress an e-mail address or a phone number',
        description: 'Exactly one of email and phone. An address already listed keeps its first reason (added: false). Audited as suppression.added.',
        tags: ['settings'],
        body: AddBody,
        response: { 200: successEnvelope(Type.Object({ address: Type.String(), reason: OneOf(SUPPRESSION_REASONS), added: Type.Boolean() })), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof AddBody> }>) =>
      ok(
        await ctx.db.transaction(async (tx) => {
          const result = await addSuppression(tx, ctx, { companyId: request.panel.companyId, ...request.body });
          if (result.added) await auditPanelAct(tx, ctx, { request, action: 'suppression.added', details: { address: result.address, reason: result.reason } });
          return result;
        }),
      ),
  );

  panel.delete(
    '/suppressions/:address',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'removeSuppression',
        summary: 'Take an address off the suppression list',
        description: 'An address not on the company’s list is 404. Audited as suppression.removed.',
        tags: ['settings'],
        params: AddressParams,
        response: { 200: successEnvelope(Type.Object({ address: Type.String(), removed: Type.Literal(true) })), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request: FastifyRequest<{ Params: Static<typeof AddressParams> }>) =>
      ok(
        await ctx.db.transaction(async (tx) => {
          const { address } = request.params;
          if (!(await unsuppress(tx, ctx, { companyId: request.panel.companyId, address }))) throw new ApiError('NOT_FOUND', `${address} is not on the suppression list.`);
          await auditPanelAct(tx, ctx, { request, action: 'suppression.removed', details: { address } });
          return { address, removed: true as const };
        }),
      ),
  );
}
