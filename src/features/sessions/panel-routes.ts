import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../../platform/app/panel/session-cookie.js';
import { describeSession } from './describe-session.js';
import { endSession } from './end-session.js';
import { LinkBody, ResetBody, Session, SetPasswordBody, SignInBody, SwitchCompanyBody } from './panel-schemas.js';
import { requestPasswordReset } from './request-password-reset.js';
import { setPasswordWithLink } from './set-password.js';
import { signInWithLink } from './sign-in-with-link.js';
import { signIn } from './sign-in.js';
import { switchCompany } from './switch-company.js';

const SessionAnswer = successEnvelope(Session);
/** Who is signed in: any user with a session, even one left with no company. */
const SIGNED_IN = { permission: null, companyOptional: true } as const;

export async function sessionPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  const answerWithSession = async (reply: FastifyReply, sessionId: string) => reply.send(ok(await describeSession(ctx.db, ctx, { sessionId })));

  panel.get(
    '/session',
    { config: SIGNED_IN, schema: { operationId: 'getSession', summary: 'The signed-in user and their current company', tags: ['session'], response: { 200: SessionAnswer, ...panelErrorResponses() } } },
    async (request, reply) => answerWithSession(reply, request.panelSession.sessionId),
  );

  panel.post(
    '/session',
    {
      config: { public: true },
      schema: {
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password',
        description: 'Sets the quorum_session cookie. A wrong address and a wrong password get the same 401.',
        tags: ['session'],
        body: SignInBody,
        response: { 200: SessionAnswer, ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: typeof SignInBody.static }>, reply) => {
      const { token, session } = await signIn(ctx.db, ctx, { ...request.body, ip: request.ip, userAgent: request.headers['user-agent'] ?? null, replacesToken: sessionCookie(request) });
      setSessionCookie(reply, ctx.config, token);
      return answerWithSession(reply, session.id);
    },
  );

  panel.delete(
    '/session',
    {
      config: SIGNED_IN,
      schema: { operationId: 'signOut', summary: 'Sign out', tags: ['session'], response: { 200: successEnvelope(Type.Object({ signedOut: Type.Literal(true) })), ...panelErrorResponses() } },
    },
    async (request, reply) => {
      await endSession(ctx.db, ctx, { session: request.panelSession, ip: request.ip });
      clearSessionCookie(reply, ctx.config);
      return ok({ signedOut: true as const });
    },
  );

  panel.put(
    '/session/company',
    {
      config: SIGNED_IN,
      schema: {
        operationId: 'switchCompany',
        summary: 'Switch to another company of the signed-in user',
        tags: ['session'],
        body: SwitchCompanyBody,
        response: { 200: SessionAnswer, ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request: FastifyRequest<{ Body: typeof SwitchCompanyBody.static }>, reply) => {
      const session = request.panelSession;
      await switchCompany(ctx.db, ctx, { sessionId: session.sessionId, userId: session.user.id, companyId: request.body.companyId });
      return answerWithSession(reply, session.sessionId);
    },
  );

  panel.post(
    '/session/link',
    {
      config: { public: true },
      schema: {
        operationId: 'signInWithLink',
        summary: 'Sign in with a one-time sign-in link',
        description: 'Uses the link (once, within 30 minutes) and sets the quorum_session cookie.',
        tags: ['session'],
        body: LinkBody,
        response: { 200: SessionAnswer, ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: typeof LinkBody.static }>, reply) => {
      const { token, session } = await signInWithLink(ctx.db, ctx, { token: request.body.token, ip: request.ip, replacesToken: sessionCookie(request) });
      setSessionCookie(reply, ctx.config, token);
      return answerWithSession(reply, session.id);
    },
  );

  panel.post(
    '/password-reset',
    {
      config: { public: true },
      schema: {
        operationId: 'requestPasswordReset',
        summary: 'Mail a set-password link to an address',
        description: 'Answers 202 whether or not the address has an account; the mail goes only to an existing one.',
        tags: ['session'],
        body: ResetBody,
        response: { 202: successEnvelope(Type.Object({ sent: Type.Literal(true) })), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: typeof ResetBody.static }>, reply) => {
      const { delivery } = await requestPasswordReset(ctx.db, ctx, { email: request.body.email, ip: request.ip });
      delivery.catch((err: unknown) => request.log.error({ err }, 'the password reset mail could not be sent'));
      return reply.code(202).send(ok({ sent: true as const }));
    },
  );

  panel.post(
    '/password',
    {
      config: { public: true },
      schema: {
        operationId: 'setPassword',
        summary: 'Set the password with a set-password link',
        description: 'Uses the link, sets the password (10 to 200 characters), signs out every session of the account and signs in.',
        tags: ['session'],
        body: SetPasswordBody,
        response: { 200: SessionAnswer, ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: typeof SetPasswordBody.static }>, reply) => {
      const { token, session } = await setPasswordWithLink(ctx.db, ctx, { token: request.body.token, password: request.body.password, ip: request.ip });
      setSessionCookie(reply, ctx.config, token);
      return answerWithSession(reply, session.id);
    },
  );
}
