import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setRateHeaders } from './auth.js';
import type { RateDecision } from './rate-limiter.js';

/**
 * Requests per client address per rolling minute on the respondent surface (the /r/v1 API and every
 * page that carries a token: /i, /f, /u), which has no key to count against. Generous for a person
 * filling a form with autosave, and for respondents sharing a carrier's NAT address.
 */
export const RESPONDENT_REQUESTS_PER_MIN = 300;

/** Counts one request against the client address's shared budget and sets the ratelimit-* headers. */
export async function spendAddressBudget(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<RateDecision> {
  const decision = await app.ctx.limiter.hit(`respondent:${request.ip}`, RESPONDENT_REQUESTS_PER_MIN, app.ctx.clock.now().getTime());
  setRateHeaders(reply, decision);
  return decision;
}
