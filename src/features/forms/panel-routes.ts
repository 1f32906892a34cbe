import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditedBy } from '../../platform/app/panel/audited-by.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { recordAudit } from '../audit/index.js';
import { createForm } from './create-form.js';
import { deleteForm } from './delete-form.js';
import { duplicateForm } from './duplicate-form.js';
import { formDetail } from './form-detail.js';
import { listFormSummaries } from './list-form-summaries.js';
import { listFormVersions } from './list-form-versions.js';
import { CreateFormBody, ListFormsQuery, PageMeta, PanelFormDetail, PanelFormSummary, PanelFormVersion, SaveFormBody, SaveFormResult } from './panel-schemas.js';
import { saveForm } from './save-form.js';
import { setFormClosed } from './set-form-closed.js';

const IdParams = Type.Object({ id: Type.String({ description: 'Form id' }) });
type IdParams = Static<typeof IdParams>;

/** The panel user as a form's author (versions name them). */
const actorOf = (request: FastifyRequest) => ({ userId: request.panel.user.id, email: request.panel.user.email });

/**
 * The panel's forms (list: permission responses; every change and the builder: forms). The same
 * services as the CLI import; each change audited in its transaction and recorded as a version.
 */
export async function formPanelRoutes(app: FastifyInstance) {
  const { ctx } = app;

  app.get<{ Querystring: ListFormsQuery }>(
    '/forms',
    {
      config: { permission: 'responses' },
      schema: {
        operationId: 'listPanelForms',
        tags: ['Forms'],
        summary: "The company's forms, newest first, with response counts and the last response",
        querystring: ListFormsQuery,
        response: { 200: successEnvelope(Type.Array(PanelFormSummary), PageMeta), ...panelErrorResponses('FORBIDDEN') },
      },
    },
    async (request) => {
      const { page = 1, limit = 20, search, status } = request.query;
      const result = await listFormSummaries(ctx.db, ctx, { companyId: request.panel.companyId, search, status, page, limit });
      return ok(result.items, { page, limit, total: result.total });
    },
  );

  app.post<{ Body: CreateFormBody }>(
    '/forms',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'createForm',
        tags: ['Forms'],
        summary: 'Create a form with one empty section (not public)',
        body: CreateFormBody,
        response: { 201: successEnvelope(PanelFormDetail), ...panelErrorResponses('FORBIDDEN', 'VALIDATION_ERROR') },
      },
    },
    async (request, reply) => {
      const { companyId } = request.panel;
      const detail = await ctx.db.transaction(async (tx) => {
        const form = await createForm(tx, ctx, { companyId, ...request.body, actor: actorOf(request) });
        await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'form.created', details: { formId: form.id, slug: form.slug } });
        return formDetail(tx, ctx, { companyId, form });
      });
      return reply.code(201).send(ok(detail));
    },
  );

  app.get<{ Params: IdParams }>(
    '/forms/:id',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'getPanelForm',
        tags: ['Forms'],
        summary: 'A form with its definition file, as the builder edits it',
        params: IdParams,
        response: { 200: successEnvelope(PanelFormDetail), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => ok(await formDetail(ctx.db, ctx, { companyId: request.panel.companyId, id: request.params.id })),
  );

  app.put<{ Params: IdParams; Body: SaveFormBody }>(
    '/forms/:id',
    {
      config: { permission: 'forms' },
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        operationId: 'saveForm',
        tags: ['Forms'],
        summary: 'Save the builder\'s definition: ids kept by key, a version recorded; answered removals need confirmRemovals',
        description:
          'The definition is checked by the same validation as `quorum form import`; its field errors name JSON paths of the file. Dropping a question or option that responses answer is refused (field confirmRemovals) until confirmed; a dry run lists them; stored answers are never deleted.',
        params: IdParams,
        body: SaveFormBody,
        response: { 200: successEnvelope(SaveFormResult), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      const { definition, confirmRemovals, dryRun } = request.body;
      return ok(
        await ctx.db.transaction(async (tx) => {
          const saved = await saveForm(tx, ctx, { companyId, id: request.params.id, definition, confirmRemovals, dryRun, actor: actorOf(request) });
          if (saved.dryRun) return { status: 'checked' as const, answeredRemovals: saved.answeredRemovals, detail: null };
          if (saved.status !== 'unchanged') {
            await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'form.saved', details: { formId: saved.form.id, confirmRemovals: confirmRemovals === true } });
          }
          return { status: saved.status === 'unchanged' ? ('unchanged' as const) : ('updated' as const), answeredRemovals: [], detail: await formDetail(tx, ctx, { companyId, form: saved.form }) };
        }),
      );
    },
  );

  for (const [action, closed] of [['close', true], ['reopen', false]] as const) {
    app.post<{ Params: IdParams }>(
      `/forms/:id/${action}`,
      {
        config: { permission: 'forms' },
        schema: {
          operationId: `${action}Form`,
          tags: ['Forms'],
          summary: closed ? 'Close a form: its links answer 410 until it is reopened' : 'Reopen a closed form',
          params: IdParams,
          response: { 200: successEnvelope(PanelFormDetail), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
        },
      },
      async (request) => {
        const { companyId } = request.panel;
        return ok(
          await ctx.db.transaction(async (tx) => {
            const form = await setFormClosed(tx, ctx, { companyId, id: request.params.id, closed, actor: actorOf(request) });
            await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: closed ? 'form.closed' : 'form.reopened', details: { formId: form.id } });
            return formDetail(tx, ctx, { companyId, form });
          }),
        );
      },
    );
  }

  app.post<{ Params: IdParams }>(
    '/forms/:id/duplicate',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'duplicateForm',
        tags: ['Forms'],
        summary: 'Copy a form (questions, settings, e-mail) under a new slug, open, with new ids and no responses',
        params: IdParams,
        response: { 201: successEnvelope(PanelFormDetail), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const { companyId } = request.panel;
      const detail = await ctx.db.transaction(async (tx) => {
        const form = await duplicateForm(tx, ctx, { companyId, id: request.params.id, actor: actorOf(request) });
        await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'form.duplicated', details: { formId: form.id, from: request.params.id } });
        return formDetail(tx, ctx, { companyId, form });
      });
      return reply.code(201).send(ok(detail));
    },
  );

  app.delete<{ Params: IdParams }>(
    '/forms/:id',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'deleteForm',
        tags: ['Forms'],
        summary: 'Delete a form that has no responses (with its invites and rules); one with responses is refused',
        params: IdParams,
        response: { 200: successEnvelope(Type.Object({ id: Type.String() })), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      return ok(
        await ctx.db.transaction(async (tx) => {
          const deleted = await deleteForm(tx, ctx, { companyId, id: request.params.id });
          await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'form.deleted', details: { formId: deleted.id, slug: deleted.slug, name: deleted.name } });
          return { id: deleted.id };
        }),
      );
    },
  );

  app.get<{ Params: IdParams }>(
    '/forms/:id/versions',
    {
      config: { permission: 'forms' },
      schema: {
        operationId: 'listFormVersions',
        tags: ['Forms'],
        summary: 'The versions of a form, newest first: who changed what, when',
        params: IdParams,
        response: { 200: successEnvelope(Type.Array(PanelFormVersion)), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => ok(await listFormVersions(ctx.db, ctx, { companyId: request.panel.companyId, id: request.params.id })),
  );
}
