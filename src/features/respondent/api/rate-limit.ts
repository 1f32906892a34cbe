import type { FastifyInstance } from 'fastify';
import { rateLimited, setRateHeaders } from '../../../app/auth.js';

/**
 * Requests per client address per rolling minute on /r/v1 (no key to count against). Generous for
 * a person filling a form with autosave, and for respondents sharing a carrier's NAT address.
 */
export const RESPONDENT_REQUESTS_PER_MIN = 300;

/** The API's sliding-log limiter (memory or Redis, the context's), keyed by the client address. */
export function registerAddressRateLimit(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const decision = await app.ctx.limiter.hit(`respondent:${request.ip}`, RESPONDENT_REQUESTS_PER_MIN, app.ctx.clock.now().getTime());
    setRateHeaders(reply, decision);
    if (!decision.allowed) throw rateLimited(decision);
  });
}
