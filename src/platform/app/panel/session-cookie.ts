import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';

/** The panel's session cookie (shared contract, "Sessions and CSRF"). */
export const SESSION_COOKIE = 'quorum_session';
const ABSOLUTE_SECONDS = 30 * 24 * 60 * 60;

/** Secure whenever the panel is served over https; Path=/panel keeps it off /v1 and the respondent pages. */
function cookieOptions(config: Pick<Config, 'publicPanelUrl'>) {
  return { path: '/panel', httpOnly: true, sameSite: 'lax' as const, secure: new URL(config.publicPanelUrl).protocol === 'https:' };
}

export function setSessionCookie(reply: FastifyReply, config: Pick<Config, 'publicPanelUrl'>, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(config), maxAge: ABSOLUTE_SECONDS });
}

export function clearSessionCookie(reply: FastifyReply, config: Pick<Config, 'publicPanelUrl'>): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(config));
}

export function sessionCookie(request: FastifyRequest): string | null {
  return request.cookies[SESSION_COOKIE] ?? null;
}
