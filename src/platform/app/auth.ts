import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import type { AuthenticatedKey, KeyAuthenticator } from '../../features/keys/authenticate-key.js';
import { hasScope, type Scope } from '../../features/keys/scopes.js';
import type { RateDecision, RateLimiter } from './rate-limiter.js';
import type { Clock } from '../../lib/clock.js';
import { urlCarriesKey } from '../../lib/log-redaction.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a route needs; null means any valid key (GET /me). */
    scope?: Scope | null;
    /** A /v1 route that needs no key (the OpenAPI document). */
    public?: boolean;
  }
  interface FastifyRequest {
    auth: AuthenticatedKey;
  }
}

/** Failed authentications allowed per client address per rolling minute. */
export const FAILED_AUTH_PER_MIN = 30;

export function setRateHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.header('ratelimit-limit', decision.limit);
  reply.header('ratelimit-remaining', decision.remaining);
  reply.header('ratelimit-reset', decision.resetSeconds);
}

export function rateLimited(decision: RateDecision): ApiError {
  return new ApiError('RATE_LIMITED', `Rate limit exceeded. Retry in ${decision.resetSeconds} s.`, null, {
    'retry-after': String(decision.resetSeconds),
  });
}

/**
 * The bearer token of the one Authorization header; null when there is none, when there are
 * several (Node would silently keep the first: ambiguous credentials), or when a key also
 * appears in the URL (a key anywhere else is no credential, and is refused rather than used).
 */
function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 13 && raw[i].toLowerCase() === 'authorization') count += 1;
  if (count > 1 || urlCarriesKey(request.url)) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * Fails closed at start-up: a /v1 route that declares no scope would accept any valid key, so it
 * refuses to register unless it says `scope: null` (any key, GET /me) or `public: true` on purpose.
 */
export function requireDeclaredScope(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.public || route.config?.scope !== undefined) return;
    throw new Error(`${String(route.method)} ${route.url} declares no config.scope (null for any valid key).`);
  });
}

const UNAUTHORIZED_MESSAGE = 'The API key is missing, invalid, revoked or expired.';

export interface AuthDeps {
  authenticator: KeyAuthenticator;
  limiter: RateLimiter;
  clock: Clock;
}

/**
 * Authenticates the request and counts it against its key's budget, or, without a valid key,
 * against its address's failure budget; sets the ratelimit-* headers of that budget either way.
 * Returns the key (null when there is none); past a budget it throws RATE_LIMITED.
 */
export async function countRequest(request: FastifyRequest, reply: FastifyReply, deps: AuthDeps): Promise<AuthenticatedKey | null> {
  const nowMs = deps.clock.now().getTime();
  // Authenticate first: a valid key always passes, so addresses shared behind a NAT or proxy
  // cannot be locked out by someone else's failures; only failures are counted per address.
  const token = bearerToken(request);
  const failKey = `authfail:${request.ip}`;
  // An address over its failure budget gets no database lookup for key ids the cache cannot
  // answer: guesses from it cost nothing and cannot churn the cache of real keys.
  if (token && !deps.authenticator.answersFromCache(token)) {
    const budget = await deps.limiter.peek(failKey, FAILED_AUTH_PER_MIN, nowMs);
    if (!budget.allowed) {
      setRateHeaders(reply, budget);
      throw rateLimited(budget);
    }
  }
  const key = token ? await deps.authenticator.authenticate(token) : null;
  const decision = key ? await deps.limiter.hit(`key:${key.id}`, key.rateLimitPerMin, nowMs) : await deps.limiter.hit(failKey, FAILED_AUTH_PER_MIN, nowMs);
  setRateHeaders(reply, decision);
  if (!decision.allowed) throw rateLimited(decision);
  return key;
}

/**
 * Authentication, per-key rate limit and scope check for every /v1 route, in that order.
 * One code for every authentication failure (no hint which), and failures are themselves
 * limited per client address so keys cannot be probed at speed: past the limit they get 429.
 */
export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('auth', null as unknown as AuthenticatedKey);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.public) return;
    const key = await countRequest(request, reply, deps);
    if (!key) {
      // An unknown route is 404 whatever the credentials (docs/contract.md, Errors); the failure still counts,
      // so probing keys there costs the same budget as on a real route.
      if (request.is404) throw new ApiError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`);
      throw new ApiError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
    }
    if (config.scope && !hasScope(key.scopes, config.scope)) {
      throw new ApiError('FORBIDDEN', `The API key lacks the scope ${config.scope}.`, { requiredScope: config.scope });
    }
    request.auth = key;
  });
}
