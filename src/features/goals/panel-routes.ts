import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditedBy } from '../../platform/app/panel/audited-by.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { recordAudit } from '../audit/index.js';
import { notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { addGoalRule, MAX_GOAL } from './add-goal-rule.js';
import type { GoalRule } from './goal-rule.js';
import { listGoalRules } from './list-goal-rules.js';
import { resetGoalRule } from './reset-goal-rule.js';

const FormParams = Type.Object({ id: Type.String({ description: 'Form id' }) });
const RuleParams = Type.Object({ id: Type.String({ description: 'Alert rule id' }) });
const AddGoalBody = Type.Object({ goal: Type.Integer({ minimum: 1, maximum: MAX_GOAL, description: 'The response count that fires form.goal_reached' }) }, { additionalProperties: false });

const PanelGoalRule = Type.Object(
  {
    id: Type.String(),
    formId: Type.String(),
    goal: Type.Integer(),
    armed: Type.Boolean({ description: 'false: fired, waits for a reset' }),
    reachedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The last crossing' }),
    reachedCount: Type.Union([Type.Integer(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Alert rule' },
);

const shown = (rule: GoalRule) => ({
  id: rule.id, formId: rule.formId, goal: rule.goal, armed: rule.armed, reachedAt: rule.reachedAt?.toISOString() ?? null, reachedCount: rule.reachedCount, createdAt: rule.createdAt.toISOString(),
});

/** A form's alert rules (goals) in the panel (permission forms): the CLI's services, each change audited. */
export async function goalPanelRoutes(app: FastifyInstance) {
  const { ctx } = app;

  app.get<{ Params: Static<typeof FormParams> }>(
    '/forms/:id/goals',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'listGoalRules',
        tags: ['Forms'],
        summary: "A form's alert rules, armed or fired, by goal",
        params: FormParams,
        response: { 200: successEnvelope(Type.Array(PanelGoalRule)), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => {
      // a non-UUID id names no form here (listGoalRules would also try it as a slug)
      if (!isUuid(request.params.id)) throw notFound('Form');
      return ok((await listGoalRules(ctx.db, ctx, { companyId: request.panel.companyId, form: request.params.id })).map(shown));
    },
  );

  app.post<{ Params: Static<typeof FormParams>; Body: Static<typeof AddGoalBody> }>(
    '/forms/:id/goals',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'addGoalRule',
        tags: ['Forms'],
        summary: 'Add an armed alert rule: form.goal_reached fires when the response count reaches the goal',
        params: FormParams,
        body: AddGoalBody,
        response: { 201: successEnvelope(PanelGoalRule), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request, reply) => {
      const { companyId } = request.panel;
      if (!isUuid(request.params.id)) throw notFound('Form');
      const rule = await ctx.db.transaction(async (tx) => {
        const added = await addGoalRule(tx, ctx, { companyId, form: request.params.id, goal: request.body.goal });
        await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'goal.added', details: { ruleId: added.rule.id, formId: added.rule.formId, goal: added.rule.goal } });
        return added.rule;
      });
      return reply.code(201).send(ok(shown(rule)));
    },
  );

  app.post<{ Params: Static<typeof RuleParams> }>(
    '/goals/:id/reset',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'resetGoalRule',
        tags: ['Forms'],
        summary: 'Re-arm a fired rule: it fires again at the next crossing of its goal',
        params: RuleParams,
        response: { 200: successEnvelope(PanelGoalRule), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      return ok(
        shown(
          await ctx.db.transaction(async (tx) => {
            const rule = await resetGoalRule(tx, ctx, { companyId, ruleId: request.params.id });
            await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'goal.reset', details: { ruleId: rule.id, formId: rule.formId } });
            return rule;
          }),
        ),
      );
    },
  );
}
