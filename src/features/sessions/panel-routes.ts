import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ok, successEnvelope } from '../../app/envelope.js';
import { panelErrorResponses } from '../../app/panel/panel-envelope.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../../app/panel/session-cookie.js';
import { describeSession } from './describe-session.js';
import { endSession } from './end-session.js';
import { Session, SignInBody, SwitchCompanyBody } from './panel-schemas.js';
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
    { config: SIGNED_IN, schema: { summary: 'The signed-in user and their current company', tags: ['session'], response: { 200: SessionAnswer, ...panelErrorResponses() } } },
    async (request, reply) => answerWithSession(reply, request.panelSession.sessionId),
  );

  panel.post(
    '/session',
    {
      config: { public: true },
      schema: {
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
      schema: { summary: 'Sign out', tags: ['session'], response: { 200: successEnvelope(Type.Object({ signedOut: Type.Literal(true) })), ...panelErrorResponses() } },
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
}
