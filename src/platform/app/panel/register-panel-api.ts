import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../../../lib/errors.js';
import { features } from '../../../features/index.js';
import { isPermission, type Permission } from '../../../features/memberships/index.js';
import { authenticateSession, type PanelSession } from '../../../features/sessions/index.js';
import { notFoundHandler } from '../error-handler.js';
import { registerStrictInput } from '../strict-input.js';
import { PANEL_API_PREFIX, registerPanelOpenApi } from './panel-openapi.js';
import { sessionCookie } from './session-cookie.js';

/** What a panel route acts as: the signed-in member in the session's current company. */
export interface PanelRequest {
  sessionId: string;
  user: { id: string; email: string; name: string };
  companyId: string;
  permissions: ReadonlySet<Permission>;
  owner: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The permission a /panel/api route needs: one of the vocabulary, 'owner' (owners only), or null
     * (any signed-in member of the current company). A panel route must declare it or `public: true`.
     */
    permission?: Permission | 'owner' | null;
    /** A panel route a signed-in user may call with no current company (the session routes). */
    companyOptional?: boolean;
  }
  interface FastifyRequest {
    /** Set on every authenticated panel route; its companyId is the only company the route may touch. */
    panel: PanelRequest;
    /** The session behind request.panel (set on companyOptional routes too, where the company may be null). */
    panelSession: PanelSession;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Fails closed at start-up: a panel route that declares neither a permission (null for any member)
 * nor `public: true` refuses to register, as does one naming a permission outside the vocabulary.
 */
export function requireDeclaredPermission(panel: FastifyInstance): void {
  panel.addHook('onRoute', (route) => {
    const config = route.config ?? {};
    if (config.public === true) return;
    const permission = config.permission;
    if (permission === null || permission === 'owner' || (typeof permission === 'string' && isPermission(permission))) return;
    throw new Error(`${String(route.method)} ${route.url} declares no config.permission (null for any member, or public: true).`);
  });
}

function csrfRefusal(message: string): ApiError {
  return new ApiError('FORBIDDEN', message, { reason: 'csrf' });
}

/** The origin a state-changing request comes from: its Origin header, else its Referer's origin. */
function requestOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '' && origin !== 'null') return origin;
  const referer = request.headers.referer;
  if (typeof referer !== 'string') return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

/**
 * Session, CSRF and permission checks of every /panel/api route, in that order of cost: the origin
 * (no database), the session cookie, the CSRF token, then the permission in the current company.
 */
function registerPanelGuard(panel: FastifyInstance, ctx: AppContext): void {
  const panelOrigin = new URL(ctx.config.publicPanelUrl).origin;
  panel.decorateRequest('panel', null as unknown as PanelRequest);
  panel.decorateRequest('panelSession', null as unknown as PanelSession);
  panel.addHook('onRequest', async (request) => {
    // An unknown route is 404 whatever the credentials, as under /v1.
    if (request.is404) return;
    const config = request.routeOptions.config;
    const changes = STATE_CHANGING.has(request.method);
    if (changes && requestOrigin(request) !== panelOrigin) throw csrfRefusal('The request does not come from the panel (Origin or Referer).');
    if (config.public) return;
    const token = sessionCookie(request);
    const session = token ? await authenticateSession(ctx.db, ctx, { token }) : null;
    if (!session) throw new ApiError('UNAUTHORIZED', 'Not signed in, or the session has expired.');
    if (changes && request.headers['x-csrf-token'] !== session.csrfToken) throw csrfRefusal('The x-csrf-token header is missing or wrong.');
    request.panelSession = session;
    if (session.companyId === null) {
      if (config.companyOptional) return;
      throw new ApiError('FORBIDDEN', 'You are not a member of any company.', { reason: 'no_company' });
    }
    const permission = config.permission;
    const allowed = permission === null || permission === undefined ? true : permission === 'owner' ? session.owner : session.permissions.has(permission);
    if (!allowed) throw new ApiError('FORBIDDEN', `You lack the permission ${permission}.`, { permission });
    request.panel = { sessionId: session.sessionId, user: session.user, companyId: session.companyId, permissions: session.permissions, owner: session.owner };
  });
}

/**
 * The panel's API under /panel/api: session-authenticated (the quorum_session cookie), CSRF-checked,
 * permission-checked, with the /v1 input rules and envelope, and its own OpenAPI document. Every
 * feature's `panelRoutes` is registered here.
 */
export async function registerPanelApi(app: FastifyInstance, ctx: AppContext, extraPlugins: FastifyPluginAsync[] = []): Promise<void> {
  let documented: FastifyInstance | null = null;
  await app.register(
    async (panel) => {
      documented = panel;
      await panel.register(cookie);
      requireDeclaredPermission(panel);
      await registerPanelOpenApi(panel, ctx.config.publicPanelUrl);
      registerPanelGuard(panel, ctx);
      registerStrictInput(panel);
      panel.setNotFoundHandler(notFoundHandler);
      for (const feature of features) if (feature.panelRoutes) await panel.register(feature.panelRoutes);
      for (const plugin of extraPlugins) await panel.register(plugin);
    },
    { prefix: PANEL_API_PREFIX },
  );
  // The document is the panel plugin's own; the app hands it out (tests check every answer against it).
  app.decorate('panelSwagger', ((options?: { yaml?: boolean }) => documented!.panelSwagger(options as never)) as FastifyInstance['panelSwagger']);
}
