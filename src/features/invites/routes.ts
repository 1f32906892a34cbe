import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CURSOR_DEFAULT_LIMIT, cursorMeta, cursorQueryFields, rejectPageParameter } from '../../platform/app/pagination.js';
import { CursorMeta, errorResponses, ok, successEnvelope } from '../../platform/app/envelope.js';
import { createInvite } from './create-invite.js';
import { inviteView } from './invite-view.js';
import { listInvites } from './list-invites.js';
import { revokeInvite } from './revoke-invite.js';
import { sendInvites } from './send-invites.js';
import { CreateInviteBody, INVITE_STATUSES, Invite, SendDryRunResult, SendInvitesBody, SendResult, type CreateInviteInput, type SendInvitesInput } from './schemas.js';

const IdParams = (description: string) => Type.Object({ id: Type.String({ description }) });
type IdParamsType = Static<ReturnType<typeof IdParams>>;

const ListInvitesQuery = Type.Object(
  { ...cursorQueryFields, status: Type.Optional(Type.Union(INVITE_STATUSES.map((s) => Type.Literal(s)), { description: 'Stored status (not effectiveStatus)' })) },
  { additionalProperties: false },
);

export async function inviteRoutes(app: FastifyInstance) {
  const views = () => ({ formUrl: app.ctx.config.publicFormUrl, now: app.ctx.clock.now() });

  app.post<{ Params: IdParamsType; Body: CreateInviteInput }>(
    '/forms/:id/invites',
    {
      config: { scope: 'invites:write' },
      schema: {
        operationId: 'createInvite',
        tags: ['Invites'],
        summary: 'Create an invite (a personal link for one contact)',
        description:
          'Sends nothing and uses no quota. At least one of email and phone; the e-mail is stored trimmed and lower-case, the phone ' +
          "in E.164 (read in the company's default country when written without +). One invite per contact (same e-mail or same " +
          'phone) per form: a second is 409 DUPLICATE_INVITE. dims take an entity id or your code; an unknown one is ' +
          '400 VALIDATION_ERROR with the path dims.<key>. expiresAt must be in the future. Scope: invites:write.',
        params: IdParams('Form id'),
        body: Type.Ref(CreateInviteBody),
        response: {
          201: { ...successEnvelope(Type.Ref(Invite)), description: 'The invite' },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR', 'DUPLICATE_INVITE', 'PAYLOAD_TOO_LARGE'),
        },
      },
    },
    async (request, reply) => {
      const row = await createInvite(app.ctx.db, app.ctx, { companyId: request.auth.company.id, formId: request.params.id, ...request.body });
      return reply.code(201).send(ok(inviteView(row, views())));
    },
  );

  app.get<{ Params: IdParamsType; Querystring: Static<typeof ListInvitesQuery> }>(
    '/forms/:id/invites',
    {
      config: { scope: 'invites:read' },
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'listInvites',
        tags: ['Invites'],
        summary: "Scan a form's invites",
        description:
          'Newest first (createdAt desc, id desc), with cursors as GET /forms/{id}/responses: meta.total on the first page only, ' +
          'nextCursor passed back unchanged with the same status filter, INVALID_CURSOR for a cursor that is unreadable, of another ' +
          'company or used with another filter, PAGE_NOT_SUPPORTED for page. status filters the stored status; every row shows ' +
          'effectiveStatus. Scope: invites:read (or invites:write).',
        params: IdParams('Form id'),
        querystring: ListInvitesQuery,
        response: {
          200: { ...successEnvelope(Type.Array(Type.Ref(Invite)), Type.Ref(CursorMeta)), description: 'A page of invites' },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR', 'INVALID_CURSOR', 'PAGE_NOT_SUPPORTED'),
        },
      },
    },
    async (request) => {
      const { cursor, limit = CURSOR_DEFAULT_LIMIT, status } = request.query;
      const page = await listInvites(app.ctx.db, { cursorSecret: app.ctx.config.secretKey, ...views() }, {
        companyId: request.auth.company.id,
        formId: request.params.id,
        limit,
        cursor,
        status,
      });
      return ok(page.items, cursorMeta(page, limit));
    },
  );

  app.post<{ Params: IdParamsType; Body: SendInvitesInput }>(
    '/forms/:id/invites/send',
    {
      config: { scope: 'invites:send' },
      schema: {
        operationId: 'sendInvites',
        tags: ['Invites'],
        summary: 'Send invites by e-mail or WhatsApp, now or scheduled',
        description:
          'Selects by inviteIds (at most 1,000), batchId (an import or an earlier send), filter.statuses (stored status), or else ' +
          'every invite of the form. Ineligible invites are skipped with a reason (no_email, no_phone, revoked, responded, expired, ' +
          'suppressed, missing_var). One quota unit per queued message is reserved for the whole call or not at all: 403 ' +
          'QUOTA_EXCEEDED with details { limit, used, reserved, requested, period }. 200 means enqueued: invite.sent, ' +
          'invite.delivered and invite.failed events tell the outcome; their data.batchId is the invite\'s own batch (its import, ' +
          'null for an invite created alone) and data.sendBatchId (extension) is this batchId. A future scheduleAt holds the messages until then. ' +
          'channel whatsapp needs the company channel (403 CHANNEL_NOT_CONFIGURED) and, on the cloud API, an approved template ' +
          '(400 TEMPLATE_REQUIRED). dryRun true (extension) runs the same checks and answers SendDryRunResult: what would be ' +
          'queued and skipped and the quota the send needs against what is left (quota.fits false where the send would be ' +
          '403 QUOTA_EXCEEDED), writing, queuing, reserving and emitting nothing. Scope: invites:send.',
        params: IdParams('Form id'),
        body: Type.Ref(SendInvitesBody),
        response: {
          200: {
            ...successEnvelope(Type.Union([Type.Ref(SendResult), Type.Ref(SendDryRunResult)])),
            description: 'The send batch: what was queued and what was skipped (with dryRun: what would be)',
          },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR', 'QUOTA_EXCEEDED', 'CHANNEL_NOT_CONFIGURED', 'TEMPLATE_REQUIRED', 'PAYLOAD_TOO_LARGE'),
        },
      },
    },
    async (request) => ok(await sendInvites(app.ctx.db, app.ctx, { companyId: request.auth.company.id, formId: request.params.id, ...request.body })),
  );

  app.post<{ Params: IdParamsType }>(
    '/invites/:id/revoke',
    {
      config: { scope: 'invites:write' },
      schema: {
        operationId: 'revokeInvite',
        tags: ['Invites'],
        summary: 'Revoke an invite',
        description:
          'The link stops working at once; pending and scheduled messages are cancelled and their quota returned; invite.revoked ' +
          'is emitted. Answers the invite (status revoked); revoking again answers the same without a second event. 409 ' +
          'ALREADY_RESPONDED when it became a response. Scope: invites:write.',
        params: IdParams('Invite id'),
        response: {
          200: { ...successEnvelope(Type.Ref(Invite)), description: 'The revoked invite' },
          ...errorResponses('FORBIDDEN', 'NOT_FOUND', 'ALREADY_RESPONDED'),
        },
      },
    },
    async (request) => ok(inviteView(await revokeInvite(app.ctx.db, app.ctx, { companyId: request.auth.company.id, inviteId: request.params.id }), views())),
  );
}
