import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, successEnvelope, CursorMeta, OffsetMeta } from '../../platform/app/envelope.js';
import { auditedBy } from '../../platform/app/panel/audited-by.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { CURSOR_DEFAULT_LIMIT, cursorMeta, offsetMeta, offsetQueryFields, offsetRequest, rejectPageParameter } from '../../platform/app/pagination.js';
import { notFound } from '../../lib/errors.js';
import { recordAudit } from '../audit/index.js';
import { findForm, listForms } from '../forms/index.js';
import { countInvites } from './count-invites.js';
import { createInvite } from './create-invite.js';
import { importInviteRows } from './import-invites.js';
import { inviteTimeline } from './invite-timeline.js';
import { inviteView } from './invite-view.js';
import { listInvites } from './list-invites.js';
import { readImportFile } from './read-import-file.js';
import { revokeInvite } from './revoke-invite.js';
import { revokeInvites } from './revoke-invites.js';
import { sendInvites } from './send-invites.js';
import { CreateInviteBody, Invite, SendDryRunResult, SendResult, type CreateInviteInput } from './schemas.js';
import {
  FormIdParams, IMPORT_FILE_BYTES, ImportFile, ImportRowsBody, ImportSummary, InviteCounts, InviteForm, InviteIdParams,
  PanelInviteQuery, PanelSendBody, ReadFileBody, RevokeSelectionBody, RevokeSelectionResult, TimelineStep, type IdParams,
} from './panel-schemas.js';

const tags = ['Invites'];
const permission = 'invites' as const;

/** The panel's invites (permission invites): the same services as /v1 and the CLI, each write audited in its transaction. */
export async function invitePanelRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const views = () => ({ formUrl: ctx.config.publicFormUrl, now: ctx.clock.now() });
  const audit = (request: FastifyRequest) => ({ companyId: request.panel.companyId, ...auditedBy(request) });

  app.get<{ Querystring: { page?: number; limit?: number } }>(
    '/invites/forms',
    {
      config: { permission },
      schema: {
        operationId: 'listInviteForms',
        tags,
        summary: 'The forms invites can be made for (the invites area’s form picker), newest first',
        querystring: Type.Object(offsetQueryFields, { additionalProperties: false }),
        response: { 200: successEnvelope(Type.Array(InviteForm), OffsetMeta), ...panelErrorResponses('FORBIDDEN') },
      },
    },
    async (request) => {
      const page = offsetRequest(request.query);
      const result = await listForms(ctx.db, ctx, { companyId: request.panel.companyId, ...page });
      const items = result.items.map(({ id, name, slug, isClosed, requiresInvite }) => ({ id, name, slug, isClosed, requiresInvite }));
      return ok(items, offsetMeta(page, result));
    },
  );

  app.get<{ Params: IdParams; Querystring: Static<typeof PanelInviteQuery> }>(
    '/forms/:id/invites',
    {
      config: { permission },
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'listFormInvites',
        tags,
        summary: "A page of the form's invites, newest first, with GET /v1/forms/{id}/invites's cursor and status filter",
        params: FormIdParams,
        querystring: PanelInviteQuery,
        response: {
          200: successEnvelope(Type.Array(Type.Ref(Invite)), Type.Ref(CursorMeta)),
          ...panelErrorResponses('NOT_FOUND', 'INVALID_CURSOR', 'PAGE_NOT_SUPPORTED'),
        },
      },
    },
    async (request) => {
      const { cursor, limit = CURSOR_DEFAULT_LIMIT, status } = request.query;
      const page = await listInvites(ctx.db, { cursorSecret: ctx.config.secretKey, ...views() }, { companyId: request.panel.companyId, formId: request.params.id, limit, cursor, status });
      return ok(page.items, cursorMeta(page, limit));
    },
  );

  app.get<{ Params: IdParams }>(
    '/forms/:id/invites/counts',
    {
      config: { permission },
      schema: {
        operationId: 'countFormInvites',
        tags,
        summary: "How many of the form's invites show each effectiveStatus",
        params: FormIdParams,
        response: { 200: successEnvelope(InviteCounts), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request) => ok(await countInvites(ctx.db, { now: ctx.clock.now() }, { companyId: request.panel.companyId, formId: request.params.id })),
  );

  app.post<{ Params: IdParams; Body: CreateInviteInput }>(
    '/forms/:id/invites',
    {
      config: { permission },
      schema: {
        operationId: 'createFormInvite',
        tags,
        summary: 'Create one invite, as POST /v1/forms/{id}/invites (sends nothing, uses no quota)',
        params: FormIdParams,
        body: Type.Ref(CreateInviteBody),
        response: { 201: successEnvelope(Type.Ref(Invite)), ...panelErrorResponses('NOT_FOUND', 'DUPLICATE_INVITE', 'PAYLOAD_TOO_LARGE') },
      },
    },
    async (request, reply) => {
      const row = await ctx.db.transaction(async (tx) => {
        const created = await createInvite(tx, ctx, { companyId: request.panel.companyId, formId: request.params.id, ...request.body });
        await recordAudit(tx, ctx, { ...audit(request), action: 'invite.created', details: { inviteId: created.id, formId: created.formId } });
        return created;
      });
      return reply.code(201).send(ok(inviteView(row, views())));
    },
  );

  app.get<{ Params: IdParams }>(
    '/invites/:id/timeline',
    {
      config: { permission },
      schema: {
        operationId: 'inviteTimeline',
        tags,
        summary: 'One invite and its timeline, oldest first: created, each queued send, then its events (failed with the reason)',
        params: InviteIdParams,
        response: { 200: successEnvelope(Type.Object({ invite: Type.Ref(Invite), steps: Type.Array(TimelineStep) })), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request) => ok(await inviteTimeline(ctx.db, views(), { companyId: request.panel.companyId, inviteId: request.params.id })),
  );

  app.post<{ Params: IdParams }>(
    '/invites/:id/revoke',
    {
      config: { permission },
      schema: {
        operationId: 'revokeOneInvite',
        tags,
        summary: 'Revoke an invite, as POST /v1/invites/{id}/revoke',
        params: InviteIdParams,
        response: { 200: successEnvelope(Type.Ref(Invite)), ...panelErrorResponses('NOT_FOUND', 'ALREADY_RESPONDED') },
      },
    },
    async (request) => {
      const row = await ctx.db.transaction(async (tx) => {
        const revoked = await revokeInvite(tx, ctx, { companyId: request.panel.companyId, inviteId: request.params.id });
        await recordAudit(tx, ctx, { ...audit(request), action: 'invite.revoked', details: { inviteIds: [revoked.id], formId: revoked.formId } });
        return revoked;
      });
      return ok(inviteView(row, views()));
    },
  );

  app.post<{ Params: IdParams; Body: RevokeSelectionBody }>(
    '/forms/:id/invites/revoke',
    {
      config: { permission },
      schema: {
        operationId: 'revokeInviteSelection',
        tags,
        summary: 'Revoke a selection of the form’s invites (at most 1,000); those already final are left and listed as unchanged',
        params: FormIdParams,
        body: RevokeSelectionBody,
        response: { 200: successEnvelope(RevokeSelectionResult), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      const form = await findForm(ctx.db, ctx, { companyId, id: request.params.id });
      if (!form) throw notFound('Form');
      return ok(
        await ctx.db.transaction(async (tx) => {
          const result = await revokeInvites(tx, ctx, { companyId, formId: form.id, inviteIds: request.body.inviteIds });
          if (result.revoked.length > 0) await recordAudit(tx, ctx, { ...audit(request), action: 'invite.revoked', details: { inviteIds: result.revoked, formId: form.id } });
          return result;
        }),
      );
    },
  );

  app.post<{ Params: IdParams; Body: PanelSendBody }>(
    '/forms/:id/invites/send',
    {
      config: { permission },
      schema: {
        operationId: 'sendFormInvites',
        tags,
        summary: 'Send to a selection (ids, batch, statuses, or all) as POST /v1/forms/{id}/invites/send; dryRun answers what it would do',
        params: FormIdParams,
        body: PanelSendBody,
        response: {
          200: successEnvelope(Type.Union([Type.Ref(SendResult), Type.Ref(SendDryRunResult)])),
          ...panelErrorResponses('NOT_FOUND', 'QUOTA_EXCEEDED', 'CHANNEL_NOT_CONFIGURED', 'TEMPLATE_REQUIRED', 'PAYLOAD_TOO_LARGE'),
        },
      },
    },
    async (request) => {
      const input = { companyId: request.panel.companyId, formId: request.params.id, ...request.body };
      if (input.dryRun) return ok(await sendInvites(ctx.db, ctx, input));
      return ok(
        await ctx.db.transaction(async (tx) => {
          const result = await sendInvites(tx, ctx, input);
          const { queued, skipped } = result;
          await recordAudit(tx, ctx, { ...audit(request), action: 'invites.sent', details: { formId: input.formId, channel: input.channel, queued, skipped: skipped.length, scheduleAt: input.scheduleAt ?? null } });
          return result;
        }),
      );
    },
  );

  app.post<{ Body: ReadFileBody }>(
    '/invites/import/read',
    {
      config: { permission },
      bodyLimit: Math.ceil(IMPORT_FILE_BYTES / 3) * 4 + 64 * 1024,
      schema: {
        operationId: 'readInviteFile',
        tags,
        summary: 'Read a CSV or XLSX file (base64) into its header and rows, for the import’s preview and column mapping; stores nothing',
        body: ReadFileBody,
        response: { 200: successEnvelope(ImportFile), ...panelErrorResponses('PAYLOAD_TOO_LARGE') },
      },
    },
    async (request) => ok(await readImportFile({ fileName: request.body.fileName, content: Buffer.from(request.body.content, 'base64') })),
  );

  app.post<{ Params: IdParams; Body: ImportRowsBody }>(
    '/forms/:id/invites/import',
    {
      config: { permission },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        operationId: 'importFormInvites',
        tags,
        summary:
          'Import mapped rows (at most 2,000 per call) with the CLI import’s rules: invalid rows reported by line, contacts that already ' +
          'have an invite left as they are. The first call makes the batch; later calls pass its batchId. dryRun checks and writes nothing.',
        params: FormIdParams,
        body: ImportRowsBody,
        response: { 200: successEnvelope(ImportSummary), ...panelErrorResponses('NOT_FOUND', 'PAYLOAD_TOO_LARGE') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      const { columns, rows, batchId, dryRun } = request.body;
      const form = await findForm(ctx.db, ctx, { companyId, id: request.params.id });
      const records = rows.map(({ line, cells }) => ({ line, record: Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ''])) }));
      const summary = await importInviteRows(ctx.db, ctx, { companyId, form, columns, rows: records, batchId, dryRun });
      // The import writes a chunk at a time (as the CLI's); its record follows the part it wrote.
      if (!dryRun) await recordAudit(ctx.db, ctx, { ...audit(request), action: 'invites.imported', details: { formId: summary.formId, batchId: summary.batchId, rows: summary.rows, created: summary.created } });
      const { formId: _formId, ...rest } = summary;
      return ok({ ...rest, batchId: dryRun ? null : summary.batchId });
    },
  );
}
