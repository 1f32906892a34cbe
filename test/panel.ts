import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ContractChecker, type OpenApiDocument } from './contract.js';
import type { TestApp } from './harness.js';
import { createUser } from '../src/features/sessions/index.js';
import { addMembership, type Permission } from '../src/features/memberships/index.js';
import { startSession } from '../src/features/sessions/start-session.js';
import { describeSession } from '../src/features/sessions/describe-session.js';

/** A signed-in panel user as the browser holds it: the session cookie and the CSRF token of GET /panel/api/session. */
export interface PanelSignIn {
  cookie: string;
  csrfToken: string;
  user: { id: string; email: string; name: string };
  password: string;
  /** The company the session starts in (null when the user belongs to none). */
  companyId: string | null;
}

export interface PanelUserOptions {
  /** The company to join; none when null (a user with no company left). */
  companyId?: string | null;
  permissions?: Permission[];
  owner?: boolean;
  email?: string;
  name?: string;
  password?: string;
}

export interface PanelRequestOptions extends InjectOptions {
  /** Leave out the x-csrf-token header (CSRF refusal tests). */
  csrf?: false;
  /** The Origin header: the panel's own by default; null sends none. */
  origin?: string | null;
}

/**
 * Calls /panel/api as the panel's browser does (cookie, Origin of the panel, x-csrf-token on
 * state-changing requests) and checks every answer against the panel's OpenAPI document.
 */
export class PanelClient {
  readonly origin: string;
  private contract: ContractChecker | null = null;

  constructor(readonly t: TestApp) {
    this.origin = new URL(t.ctx.config.publicPanelUrl).origin;
  }

  async request(session: PanelSignIn | null, options: PanelRequestOptions): Promise<LightMyRequestResponse> {
    const { csrf, origin, ...opts } = options;
    const method = String(opts.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    const sentOrigin = origin === undefined ? this.origin : origin;
    if (sentOrigin !== null) headers.origin = sentOrigin;
    if (session) headers.cookie = `quorum_session=${session.cookie}`;
    if (session && csrf !== false && method !== 'GET') headers['x-csrf-token'] = session.csrfToken;
    const res = await this.t.app.inject({ ...opts, method: method as InjectOptions['method'], headers: { ...headers, ...(opts.headers as Record<string, string>) } });
    this.contract ??= new ContractChecker(this.t.app.panelSwagger() as unknown as OpenApiDocument, '/panel/api');
    this.contract.check(method, String(opts.url ?? '/'), res.statusCode, res.body);
    return res;
  }

  get(session: PanelSignIn | null, url: string, options: Omit<PanelRequestOptions, 'method' | 'url'> = {}) {
    return this.request(session, { ...options, method: 'GET', url });
  }

  post(session: PanelSignIn | null, url: string, body?: unknown, options: Omit<PanelRequestOptions, 'method' | 'url' | 'payload'> = {}) {
    return this.request(session, { ...options, method: 'POST', url, ...(body === undefined ? {} : { payload: body as object }) });
  }

  put(session: PanelSignIn | null, url: string, body?: unknown, options: Omit<PanelRequestOptions, 'method' | 'url' | 'payload'> = {}) {
    return this.request(session, { ...options, method: 'PUT', url, ...(body === undefined ? {} : { payload: body as object }) });
  }

  delete(session: PanelSignIn | null, url: string, options: Omit<PanelRequestOptions, 'method' | 'url'> = {}) {
    return this.request(session, { ...options, method: 'DELETE', url });
  }

  /** Signs in through POST /panel/api/session and reads the CSRF token from GET /panel/api/session. */
  async signIn(email: string, password: string): Promise<Omit<PanelSignIn, 'user' | 'password'> & { user: PanelSignIn['user'] }> {
    const res = await this.post(null, '/panel/api/session', { email, password });
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
    const cookie = res.cookies.find((c) => c.name === 'quorum_session');
    if (!cookie) throw new Error('sign-in set no quorum_session cookie');
    const data = res.json().data;
    return { cookie: cookie.value, csrfToken: data.csrfToken, user: { id: data.user.id, email: data.user.email, name: data.user.name }, companyId: data.company?.id ?? null };
  }
}

let users = 0;

/** A panel user with a password, member of `companyId` (a fresh company when absent) with the given permissions. */
export async function panelUser(t: TestApp, options: PanelUserOptions = {}) {
  users += 1;
  const email = options.email ?? `person-${users}-${randomBytes(3).toString('hex')}@school.test`;
  const password = options.password ?? `correct horse ${randomBytes(4).toString('hex')}`;
  const user = await createUser(t.ctx.db, t.ctx, { email, name: options.name ?? `Person ${users}`, password });
  const companyId = options.companyId === undefined ? (await t.company()).id : options.companyId;
  if (companyId !== null) {
    await addMembership(t.ctx.db, t.ctx, { companyId, userId: user.id, permissions: options.permissions ?? [], owner: options.owner ?? false });
  }
  return { user, email, password, companyId };
}

/**
 * A user with a membership, signed in through the real routes: the cookie and CSRF token other
 * tests send (with PanelClient). Defaults: a fresh company, no permission, not an owner.
 */
export async function signInPanelUser(t: TestApp, options: PanelUserOptions = {}): Promise<PanelSignIn & { client: PanelClient }> {
  const client = new PanelClient(t);
  const { email, password } = await panelUser(t, options);
  const signedIn = await client.signIn(email, password);
  return { ...signedIn, password, client };
}

/**
 * A session opened by the service, without a password (no argon2 work): for suites that need many
 * sessions and do not test sign-in itself. Same shape as signInPanelUser's, password empty.
 */
export async function panelSession(t: TestApp, options: Omit<PanelUserOptions, 'password'> = {}): Promise<PanelSignIn> {
  users += 1;
  const email = options.email ?? `member-${users}-${randomBytes(3).toString('hex')}@school.test`;
  const user = await createUser(t.ctx.db, t.ctx, { email, name: options.name ?? `Member ${users}` });
  const companyId = options.companyId === undefined ? (await t.company()).id : options.companyId;
  if (companyId !== null) {
    await addMembership(t.ctx.db, t.ctx, { companyId, userId: user.id, permissions: options.permissions ?? [], owner: options.owner ?? false });
  }
  const { token, session } = await startSession(t.ctx.db, t.ctx, { userId: user.id, ip: null });
  const view = await describeSession(t.ctx.db, t.ctx, { sessionId: session.id });
  return { cookie: token, csrfToken: view.csrfToken, user: { id: user.id, email: user.email, name: user.name }, password: '', companyId };
}
