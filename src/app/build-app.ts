import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.js';
import type { Config } from '../config.js';
import { registerErrorHandling } from './error-handler.js';
import { registerAuth } from './auth.js';
import { registerMetrics } from './metrics.js';
import { openApiRoute, registerDocs, registerOpenApi } from './openapi.js';
import { CursorMeta, ErrorEnvelope, OffsetMeta } from './envelope.js';
import { uuidv7 } from '../lib/ids.js';
import { KeyAuthenticator } from '../features/keys/authenticate-key.js';
import { keyRoutes, keySchemas } from '../features/keys/routes.js';
import { formRoutes } from '../features/forms/routes.js';
import { formSchemas } from '../features/forms/schemas.js';
import { responseRoutes } from '../features/responses/routes.js';
import { responseSchemas } from '../features/responses/schemas.js';
import { eventRoutes, eventSchemas } from '../features/events/routes.js';
import { healthRoutes } from '../features/health/routes.js';
import { statisticsRoutes } from '../features/statistics/routes.js';
import { statisticsSchemas } from '../features/statistics/schemas.js';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'];
  /** How long a verified key is trusted before it is read again (revocation delay). */
  authCacheMs?: number;
  /** Extra authenticated /v1 plugins (tests mount probe routes this way). */
  v1Plugins?: FastifyPluginAsync[];
}

export const BODY_LIMIT = 1024 * 1024;
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** /v1 routes by feature; each plugin is one room. */
const v1Features = [openApiRoute, keyRoutes, formRoutes, responseRoutes, eventRoutes, statisticsRoutes];
const sharedSchemas = [ErrorEnvelope, OffsetMeta, CursorMeta, ...keySchemas, ...formSchemas, ...responseSchemas, ...eventSchemas, ...statisticsSchemas];

function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // An empty body on a body-less POST (revoke) is no body, not a JSON error.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(request, body as string, done);
  });
}

/** A hop count means: believe that many proxies nearest to us (the typings lack the number form). */
function trustProxyOption(setting: Config['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : uuidv7();
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: true, useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('ctx', ctx);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  app.removeContentTypeParser('application/json');
  registerJsonParser(app);
  for (const schema of sharedSchemas) app.addSchema(schema);
  const registry = registerMetrics(app, ctx.pool);
  await registerOpenApi(app, ctx.config.publicApiUrl);

  await app.register(healthRoutes, { pool: ctx.pool, registry });
  await registerDocs(app);
  const authenticator = new KeyAuthenticator(ctx.db, ctx.clock, options.authCacheMs);
  await app.register(
    async (v1) => {
      registerAuth(v1, { authenticator, limiter: ctx.limiter, clock: ctx.clock });
      for (const feature of [...v1Features, ...(options.v1Plugins ?? [])]) await v1.register(feature);
    },
    { prefix: '/v1' },
  );
  return app;
}
