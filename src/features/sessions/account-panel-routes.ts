import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { clearSessionCookie } from '../../platform/app/panel/session-cookie.js';
import type { AccountActor } from './account-actor.js';
import { changePassword } from './change-password.js';
import { confirmSecondFactor } from './confirm-second-factor.js';
import { describeSession } from './describe-session.js';
import { disableSecondFactor } from './disable-second-factor.js';
import { enrolSecondFactor } from './enrol-second-factor.js';
import { Password } from './create-user.js';
import { Session } from './panel-schemas.js';
import { LanguageChoice, updateProfile } from './update-profile.js';
import { endUserSessions, listUserSessions } from './user-sessions.js';

/** The person's own account: any signed-in user, even one left with no company. */
const SIGNED_IN = { permission: null, companyOptional: true } as const;
const TAGS = ['account'];

// bounds only: the blank-name rule is the service's, so the CLI and this route word it alike
const ProfileBody = Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })), language: Type.Optional(LanguageChoice) }, { additionalProperties: false });
const ChangePasswordBody = Type.Object(
  { currentPassword: Type.String({ minLength: 1, maxLength: 200 }), newPassword: Password },
  { additionalProperties: false },
);
const CodeBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });
const DisableBody = Type.Object({ password: Type.String({ minLength: 1, maxLength: 200 }), code: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });
const SessionParams = Type.Object({ sessionId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

const UserSession = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    current: Type.Boolean({ description: 'The session making this request' }),
    createdAt: Type.String({ format: 'date-time' }),
    lastSeenAt: Type.String({ format: 'date-time' }),
    ip: Type.Union([Type.String(), Type.Null()]),
    userAgent: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'UserSession' },
);

const Enrolment = Type.Object(
  {
    secret: Type.String({ description: 'Base32, for typing into an app that cannot scan' }),
    otpauthUri: Type.String(),
    qrSvg: Type.String({ description: 'The otpauth URI as an SVG QR code' }),
  },
  { title: 'SecondFactorEnrolment' },
);

export async function accountPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  const actorOf = (request: FastifyRequest): AccountActor => ({
    userId: request.panelSession.user.id,
    email: request.panelSession.user.email,
    companyId: request.panelSession.companyId,
    ip: request.ip,
  });

  panel.patch(
    '/account',
    {
      config: SIGNED_IN,
      schema: { operationId: 'updateAccount', summary: 'Change your name or panel language', tags: TAGS, body: ProfileBody, response: { 200: successEnvelope(Session), ...panelErrorResponses() } },
    },
    async (request: FastifyRequest<{ Body: Static<typeof ProfileBody> }>) => {
      await updateProfile(ctx.db, ctx, { userId: request.panelSession.user.id, ...request.body });
      return ok(await describeSession(ctx.db, ctx, { sessionId: request.panelSession.sessionId }));
    },
  );

  panel.put(
    '/account/password',
    {
      config: SIGNED_IN,
      schema: {
        operationId: 'changePassword', summary: 'Change your password',
        description: 'Needs the current password (400 on `currentPassword` when wrong). Every other session of yours is signed out.',
        tags: TAGS,
        body: ChangePasswordBody,
        response: { 200: successEnvelope(Type.Object({ otherSessionsEnded: Type.Integer({ minimum: 0 }) })), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof ChangePasswordBody> }>) =>
      ok(await changePassword(ctx.db, ctx, { actor: actorOf(request), sessionId: request.panelSession.sessionId, ...request.body })),
  );

  panel.get(
    '/account/sessions',
    { config: SIGNED_IN, schema: { operationId: 'listAccountSessions', summary: 'Your signed-in sessions', tags: TAGS, response: { 200: successEnvelope(Type.Array(UserSession)), ...panelErrorResponses() } } },
    async (request) => ok(await listUserSessions(ctx.db, ctx, { userId: request.panelSession.user.id, sessionId: request.panelSession.sessionId })),
  );

  panel.delete(
    '/account/sessions/:sessionId',
    {
      config: SIGNED_IN,
      schema: {
        operationId: 'endAccountSession', summary: 'Sign out one of your sessions',
        description: 'Signing out the current session also clears its cookie.',
        tags: TAGS,
        params: SessionParams,
        response: { 200: successEnvelope(Type.Object({ ended: Type.Integer({ minimum: 0 }) })), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request: FastifyRequest<{ Params: Static<typeof SessionParams> }>, reply) => {
      const result = await endUserSessions(ctx.db, ctx, { actor: actorOf(request), currentSessionId: request.panelSession.sessionId, sessionId: request.params.sessionId });
      if (request.params.sessionId === request.panelSession.sessionId) clearSessionCookie(reply, ctx.config);
      return ok(result);
    },
  );

  panel.delete(
    '/account/sessions',
    {
      config: SIGNED_IN,
      schema: { operationId: 'endOtherAccountSessions', summary: 'Sign out every session but this one', tags: TAGS, response: { 200: successEnvelope(Type.Object({ ended: Type.Integer({ minimum: 0 }) })), ...panelErrorResponses() } },
    },
    async (request) => ok(await endUserSessions(ctx.db, ctx, { actor: actorOf(request), currentSessionId: request.panelSession.sessionId, others: true })),
  );

  panel.post(
    '/account/second-factor',
    {
      config: SIGNED_IN,
      schema: {
        operationId: 'enrolSecondFactor', summary: 'Start setting up the TOTP second factor',
        description: 'Returns a new secret (shown once) as text, otpauth URI and QR code; it takes effect once a code from it is confirmed.',
        tags: TAGS,
        response: { 200: successEnvelope(Enrolment), ...panelErrorResponses() },
      },
    },
    async (request) => ok(await enrolSecondFactor(ctx.db, ctx, { userId: request.panelSession.user.id, email: request.panelSession.user.email })),
  );

  panel.post(
    '/account/second-factor/confirm',
    {
      config: SIGNED_IN,
      schema: {
        operationId: 'confirmSecondFactor', summary: 'Turn the second factor on with a code from the app',
        description: 'Answers ten recovery codes, shown this once; each signs in once in place of a code.',
        tags: TAGS,
        body: CodeBody,
        response: { 200: successEnvelope(Type.Object({ recoveryCodes: Type.Array(Type.String()) })), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof CodeBody> }>) => ok(await confirmSecondFactor(ctx.db, ctx, { actor: actorOf(request), code: request.body.code })),
  );

  panel.post(
    '/account/second-factor/disable',
    {
      config: SIGNED_IN,
      schema: {
        operationId: 'disableSecondFactor', summary: 'Turn the second factor off',
        description: 'Needs the password and a current code (or a recovery code).',
        tags: TAGS,
        body: DisableBody,
        response: { 200: successEnvelope(Type.Object({ secondFactor: Type.Literal(false) })), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof DisableBody> }>) => {
      await disableSecondFactor(ctx.db, ctx, { actor: actorOf(request), ...request.body });
      return ok({ secondFactor: false as const });
    },
  );
}
