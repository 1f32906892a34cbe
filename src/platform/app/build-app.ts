import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.js';
import type { Config } from '../config.js';
import { notFoundHandler, registerErrorHandling } from './error-handler.js';
import { frameworkErrors } from './framework-errors.js';
import { clientErrorHandler, refuseConnect } from './client-errors.js';
import { registerStrictInput } from './strict-input.js';
import { registerIdempotency } from './idempotency.js';
import { registerAuth, requireDeclaredScope, type AuthDeps } from './auth.js';
import { registerMetrics } from './metrics.js';
import { openApiRoute, registerDocs, registerOpenApi } from './openapi.js';
import { AnonymityDetails, CursorMeta, ErrorEnvelope, OffsetMeta, QuotaDetails, ValidationDetails } from './envelope.js';
import { uuidv7 } from '../../lib/ids.js';
import { parseDay, parseInstant } from '../../lib/date-time.js';
import { KeyAuthenticator } from '../../features/keys/authenticate-key.js';
import { features } from '../../features/index.js';
import { healthRoutes } from '../health/routes.js';
import { OneLineRequestLog } from './one-line-request-log.js';
import { lazySerializers } from './lazy-serializers.js';
import type { Readiness } from '../health/readiness.js';
import { registerPanelApi } from './panel/register-panel-api.js';
import { serveWeb } from './panel/serve-web.js';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export interface BuildAppOptions {
  /** How long a verified key is trusted before it is read again (revocation delay). */
  authCacheMs?: number;
  /** Extra authenticated /v1 plugins (tests mount probe routes this way). */
  v1Plugins?: FastifyPluginAsync[];
  /** Extra /panel/api plugins (tests mount probe routes this way). */
  panelPlugins?: FastifyPluginAsync[];
  /** The panel's built web app (default dist/panel); tests point it elsewhere. */
  panelDir?: string;
  /** Start-up work /readyz waits for (`quorum start` holds it while seeding the demo); ready when absent. */
  readiness?: Readiness;
  /** Compile every response serializer at start-up instead of on first use (the test that every one compiles). */
  eagerSerializers?: boolean;
}

export const BODY_LIMIT = 1024 * 1024;
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** /v1 routes and shared schemas, as the features declare them (src/features/index.ts). */
const v1Routes = [openApiRoute, ...features.flatMap((feature) => (feature.routes ? [feature.routes] : []))];
const baseSchemas = [ValidationDetails, QuotaDetails, AnonymityDetails, ErrorEnvelope, OffsetMeta, CursorMeta];
const sharedSchemas = async () => [...baseSchemas, ...(await Promise.all(features.map((feature) => feature.schemas?.() ?? []))).flat()];

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
  // The router's refusals count against a key's budget too, once the authenticator exists.
  const late: { auth?: AuthDeps } = {};
  const app = Fastify({
    // The context's pino logger (typed as the base logger so plugins type-check); when silent,
    // Fastify's no-op logger spares a child logger per request.
    ...(ctx.logger.level === 'silent' ? { logger: false } : { loggerInstance: ctx.logger as FastifyBaseLogger }),
    bodyLimit: BODY_LIMIT,
    logController: new OneLineRequestLog(),
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : uuidv7();
    },
    frameworkErrors: frameworkErrors(() => late.auth),
    clientErrorHandler,
    // Node would answer a missing Host itself, bare; no route depends on Host, so Fastify answers.
    http: { requireHostHeader: false },
    ...(options.eagerSerializers ? {} : { schemaController: { compilersFactory: { buildSerializer: lazySerializers } } }),
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: true, useDefaults: true },
      // After ajv-formats: the schemas' date formats read values as the services do (src/lib/date-time.ts).
      onCreate: (ajv) => {
        ajv.addFormat('date', { type: 'string', validate: (text: string) => parseDay(text) !== null });
        ajv.addFormat('date-time', { type: 'string', validate: (text: string) => parseInstant(text) !== null });
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('ctx', ctx);
  app.server.on('connect', refuseConnect);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  app.removeContentTypeParser('application/json');
  registerJsonParser(app);
  for (const schema of await sharedSchemas()) app.addSchema(schema);
  const registry = registerMetrics(app, { pool: ctx.pool, clock: ctx.clock, backlog: features.flatMap((feature) => feature.backlog ?? []), replica: ctx.replica });
  await registerOpenApi(app, ctx.config.publicApiUrl);

  await app.register(healthRoutes, { pool: ctx.pool, registry, metricsToken: ctx.config.metricsToken, readiness: options.readiness });
  await registerDocs(app);
  // Pages and callbacks outside /v1 (no API key: their own credentials), as the features declare them.
  for (const feature of features) if (feature.pages) await app.register(feature.pages);
  await serveWeb(app, { dir: options.panelDir });
  const authenticator = new KeyAuthenticator(ctx.db, ctx.clock, options.authCacheMs);
  await authenticator.listen(ctx.pool.options, (level, message) => app.log[level](message));
  app.addHook('onClose', () => authenticator.close());
  const authDeps: AuthDeps = { authenticator, limiter: ctx.limiter, clock: ctx.clock };
  late.auth = authDeps;
  await app.register(
    async (v1) => {
      registerAuth(v1, authDeps);
      requireDeclaredScope(v1);
      registerStrictInput(v1);
      registerIdempotency(v1);
      // Under /v1 an unknown route passes authentication and the rate limit like any other (its headers too).
      v1.setNotFoundHandler(notFoundHandler);
      for (const routes of [...v1Routes, ...(options.v1Plugins ?? [])]) await v1.register(routes);
    },
    { prefix: '/v1' },
  );
  await registerPanelApi(app, ctx, options.panelPlugins);
  return app;
}
