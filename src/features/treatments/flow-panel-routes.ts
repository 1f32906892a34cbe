import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditPanelAct } from '../../platform/app/panel/panel-audit.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { closed } from '../../lib/schema-pieces.js';
import { addFlow, removeFlow } from './flows.js';
import { listFlowFiles } from './list-flow-files.js';

const IdParams = Type.Object({ id: Type.String({ description: 'Form id' }) });
const KeyParams = Type.Object({ id: Type.String({ description: 'Form id' }), key: Type.String({ maxLength: 64, description: 'Flow key' }) });
const FlowBody = Type.Object({ flow: Type.Unknown({ description: 'The flow file (src/features/treatments/README.md), questions by key' }) }, closed);
const FlowItem = Type.Object(
  {
    key: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    file: Type.Unknown({ description: 'The flow as its file writes it: key, name, when, steps, effectivenessCheck' }),
  },
  { title: 'Treatment flow' },
);

/** A form's treatment flows (permission forms): the services of `quorum form flow`, each change audited. */
export async function flowPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  const listed = async (companyId: string, formId: string) =>
    (await listFlowFiles(ctx.db, ctx, { companyId, formId })).map((flow) => ({ ...flow, createdAt: flow.createdAt.toISOString() }));

  panel.get<{ Params: Static<typeof IdParams> }>(
    '/forms/:id/flows',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'listFlows',
        tags: ['Forms'],
        summary: "The form's treatment flows, by key, as files",
        params: IdParams,
        response: { 200: successEnvelope(Type.Array(FlowItem)), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => ok(await listed(request.panel.companyId, request.params.id)),
  );

  panel.put<{ Params: Static<typeof IdParams>; Body: Static<typeof FlowBody> }>(
    '/forms/:id/flows',
    {
      config: { permission: 'forms' },
      bodyLimit: 256 * 1024,
      schema: {
        operationId: 'saveFlow',
        tags: ['Forms'],
        summary: "Add a flow, or replace the form's flow with the same key (open cases keep their steps); answers the form's flows",
        params: IdParams,
        body: FlowBody,
        response: { 200: successEnvelope(Type.Array(FlowItem)), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      await ctx.db.transaction(async (tx) => {
        const flow = await addFlow(tx, ctx, { companyId, formIdOrSlug: request.params.id, file: request.body.flow });
        await auditPanelAct(tx, ctx, { request, action: 'form.flow.saved', details: { formId: flow.formId, key: flow.key } });
      });
      return ok(await listed(companyId, request.params.id));
    },
  );

  panel.delete<{ Params: Static<typeof KeyParams> }>(
    '/forms/:id/flows/:key',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'removeFlow',
        tags: ['Forms'],
        summary: 'Remove a flow: its cases stay, no new ones open; answers the form\'s flows',
        params: KeyParams,
        response: { 200: successEnvelope(Type.Array(FlowItem)), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      const { id, key } = request.params;
      await ctx.db.transaction(async (tx) => {
        await removeFlow(tx, ctx, { companyId, formIdOrSlug: id, key });
        await auditPanelAct(tx, ctx, { request, action: 'form.flow.removed', details: { formId: id, key } });
      });
      return ok(await listed(companyId, id));
    },
  );
}
