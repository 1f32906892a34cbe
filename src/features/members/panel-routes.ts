import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { sessionCookie, setSessionCookie } from '../../platform/app/panel/session-cookie.js';
import { describeSession, Session } from '../sessions/index.js';
import { acceptInvitation, AcceptInvitationInput } from './accept-invitation.js';
import { cancelInvitation } from './cancel-invitation.js';
import { changeMember } from './change-member.js';
import { inviteColleague } from './invite-colleague.js';
import { listInvitations } from './list-invitations.js';
import { listMembers } from './list-members.js';
import { ChangeMemberBody, Invitation, InvitationParams, InviteBody, Member, MemberParams } from './panel-schemas.js';
import { removeMember } from './remove-member.js';

const TAGS = ['members'];

/** Members and colleague invitations (shared design: `settings` reads them; owners manage them). */
export async function memberPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  const actorOf = (request: FastifyRequest) => ({ userId: request.panel.user.id, email: request.panel.user.email, name: request.panel.user.name, ip: request.ip });

  panel.get(
    '/members',
    { config: { permission: 'settings' }, schema: { operationId: 'listMembers', summary: "The company's members and their permissions", tags: TAGS, response: { 200: successEnvelope(Type.Array(Member)), ...panelErrorResponses() } } },
    async (request) => ok(await listMembers(ctx.db, ctx, { companyId: request.panel.companyId })),
  );

  panel.put(
    '/members/:userId',
    {
      config: { permission: 'owner' },
      schema: {
        operationId: 'changeMember', summary: "Set a member's permissions and owner flag",
        description: 'Owners only. Applies at the member’s next request. Demoting the last owner is 400 VALIDATION_ERROR on `owner`.',
        tags: TAGS,
        params: MemberParams,
        body: ChangeMemberBody,
        response: { 200: successEnvelope(Member), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request: FastifyRequest<{ Params: Static<typeof MemberParams>; Body: Static<typeof ChangeMemberBody> }>) =>
      ok(await changeMember(ctx.db, ctx, { companyId: request.panel.companyId, userId: request.params.userId, ...request.body, actor: actorOf(request) })),
  );

  panel.delete(
    '/members/:userId',
    {
      config: { permission: 'owner' },
      schema: {
        operationId: 'removeMember', summary: 'Remove a member from the company',
        description: 'Owners only. The account stays (and its other companies). Removing the last owner is 400 VALIDATION_ERROR on `userId`.',
        tags: TAGS,
        params: MemberParams,
        response: { 200: successEnvelope(Type.Object({ removed: Type.Literal(true) })), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request: FastifyRequest<{ Params: Static<typeof MemberParams> }>) => {
      await removeMember(ctx.db, ctx, { companyId: request.panel.companyId, userId: request.params.userId, actor: actorOf(request) });
      return ok({ removed: true as const });
    },
  );

  panel.get(
    '/invitations',
    { config: { permission: 'settings' }, schema: { operationId: 'listInvitations', summary: 'Invitations waiting for their colleague', tags: TAGS, response: { 200: successEnvelope(Type.Array(Invitation)), ...panelErrorResponses() } } },
    async (request) => ok(await listInvitations(ctx.db, ctx, { companyId: request.panel.companyId })),
  );

  panel.post(
    '/invitations',
    {
      config: { permission: 'owner' },
      schema: {
        operationId: 'inviteColleague', summary: 'Invite a colleague by e-mail',
        description: 'Owners only. Mails a link to <panel>/accept, good for 7 days and once; a newer invitation to the same address replaces a pending one.',
        tags: TAGS,
        body: InviteBody,
        response: { 201: successEnvelope(Invitation), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof InviteBody> }>, reply) => {
      const invitation = await inviteColleague(ctx.db, ctx, { companyId: request.panel.companyId, ...request.body, actor: actorOf(request) });
      return reply.code(201).send(ok(invitation));
    },
  );

  panel.delete(
    '/invitations/:invitationId',
    {
      config: { permission: 'owner' },
      schema: {
        operationId: 'cancelInvitation', summary: 'Cancel a pending invitation',
        tags: TAGS,
        params: InvitationParams,
        response: { 200: successEnvelope(Type.Object({ cancelled: Type.Literal(true) })), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request: FastifyRequest<{ Params: Static<typeof InvitationParams> }>) => {
      await cancelInvitation(ctx.db, ctx, { companyId: request.panel.companyId, invitationId: request.params.invitationId, actor: actorOf(request) });
      return ok({ cancelled: true as const });
    },
  );

  panel.post(
    '/invitations/accept',
    {
      config: { public: true },
      schema: {
        operationId: 'acceptInvitation', summary: 'Accept a colleague invitation and sign in',
        description:
          'A new address becomes an account with this name and password; an address that already has an account gives that ' +
          'account’s password (and code, when it has a second factor: 401 with details.secondFactor otherwise). A used, cancelled ' +
          'or expired link is 400 VALIDATION_ERROR on `token`. Sets the quorum_session cookie, in the inviting company.',
        tags: TAGS,
        security: [],
        body: AcceptInvitationInput,
        response: { 200: successEnvelope(Session), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof AcceptInvitationInput> }>, reply) => {
      const { token, session } = await acceptInvitation(ctx.db, ctx, { ...request.body, ip: request.ip, userAgent: request.headers['user-agent'] ?? null, replacesToken: sessionCookie(request) });
      setSessionCookie(reply, ctx.config, token);
      return ok(await describeSession(ctx.db, ctx, { sessionId: session.id }));
    },
  );
}
