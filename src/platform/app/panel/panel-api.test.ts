import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { PanelClient, panelUser, signInPanelUser } from '../../../../test/panel.js';
import { ok, successEnvelope } from '../envelope.js';
import { panelErrorResponses } from './panel-envelope.js';
import { requireDeclaredPermission } from './register-panel-api.js';
import { memberships } from '../../db/schema.js';

const Probe = successEnvelope(Type.Object({ companyId: Type.String(), userId: Type.String(), owner: Type.Boolean() }));

/** Probe routes with each kind of declaration; they answer who the platform says the caller is. */
async function probeRoutes(panel: FastifyInstance): Promise<void> {
  const answer = (request: { panel: { companyId: string; user: { id: string }; owner: boolean } }) =>
    ok({ companyId: request.panel.companyId, userId: request.panel.user.id, owner: request.panel.owner });
  const schema = { response: { 200: Probe, ...panelErrorResponses() } };
  panel.get('/probe/forms', { config: { permission: 'forms' }, schema }, async (request) => answer(request));
  panel.post('/probe/forms', { config: { permission: 'forms' }, schema }, async (request) => answer(request));
  panel.get('/probe/owner', { config: { permission: 'owner' }, schema }, async (request) => answer(request));
  panel.get(
    '/probe/any',
    { config: { permission: null }, schema: { ...schema, querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })) }, { additionalProperties: false }) } },
    async (request) => answer(request),
  );
}

let t: TestApp;
let client: PanelClient;
beforeAll(async () => {
  t = await startTestApp({ panelPlugins: [probeRoutes] });
  client = new PanelClient(t);
});
afterAll(() => t?.close());

describe('fail closed at start-up', () => {
  async function register(config: object): Promise<void> {
    const app = Fastify();
    await app.register(async (panel) => {
      requireDeclaredPermission(panel);
      panel.get('/x', { config }, async () => 'x');
    });
    await app.ready();
    await app.close();
  }

  it('refuses a panel route that declares no permission, or one outside the vocabulary', async () => {
    await expect(register({})).rejects.toThrow(/GET \/x declares no config.permission/);
    await expect(register({ permission: 'everything' })).rejects.toThrow(/declares no config.permission/);
    await expect(register({ scope: 'forms:read' })).rejects.toThrow(/declares no config.permission/);
  });

  it('accepts a permission, owner, null and public', async () => {
    for (const config of [{ permission: 'forms' }, { permission: 'owner' }, { permission: null }, { public: true }]) await expect(register(config)).resolves.toBeUndefined();
  });
});

describe('session authentication', () => {
  it('answers 401 UNAUTHORIZED in the envelope without a session cookie, or with one that names no session', async () => {
    for (const cookie of [undefined, 'quorum_session=nope', `quorum_session=${'A'.repeat(43)}`]) {
      const res = await client.get(null, '/panel/api/probe/any', { headers: cookie ? { cookie } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', details: null } });
    }
  });

  it('acts as the member in the session’s company', async () => {
    const session = await signInPanelUser(t, { permissions: ['forms'] });
    const res = await client.get(session, '/panel/api/probe/forms');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ companyId: session.companyId, userId: session.user.id, owner: false });
  });

  it('answers an unknown panel route 404 NOT_FOUND in the envelope, signed in or not', async () => {
    const session = await signInPanelUser(t);
    for (const who of [null, session]) {
      const res = await client.get(who, '/panel/api/no-such-thing');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });
});

describe('permissions', () => {
  it('refuses a member without the route’s permission with 403 naming it, and lets one with it through', async () => {
    const without = await signInPanelUser(t, { permissions: ['invites', 'responses'] });
    const refused = await client.get(without, '/panel/api/probe/forms');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'forms' } });
    expect((await client.post(without, '/panel/api/probe/forms')).statusCode).toBe(403);
    expect((await client.get(without, '/panel/api/probe/any')).statusCode).toBe(200);
  });

  it('gives an owner every permission and the owner routes; others get 403 on owner routes', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    expect((await client.get(owner, '/panel/api/probe/forms')).statusCode).toBe(200);
    const ownerRoute = await client.get(owner, '/panel/api/probe/owner');
    expect(ownerRoute.statusCode).toBe(200);
    expect(ownerRoute.json().data.owner).toBe(true);
    const member = await signInPanelUser(t, { permissions: ['integrations', 'forms', 'invites', 'responses', 'rosters', 'treatments', 'settings'] });
    const refused = await client.get(member, '/panel/api/probe/owner');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.details).toEqual({ permission: 'owner' });
  });

  it('reads the membership afresh on every request: a permission taken away or a removal applies at once', async () => {
    const session = await signInPanelUser(t, { permissions: ['forms'] });
    expect((await client.get(session, '/panel/api/probe/forms')).statusCode).toBe(200);
    await t.ctx.db.update(memberships).set({ permissions: [] }).where(eq(memberships.userId, session.user.id));
    expect((await client.get(session, '/panel/api/probe/forms')).statusCode).toBe(403);
    await t.ctx.db.delete(memberships).where(eq(memberships.userId, session.user.id));
    const removed = await client.get(session, '/panel/api/probe/any');
    expect(removed.statusCode).toBe(403);
    expect(removed.json().error.details).toEqual({ reason: 'no_company' });
    // the session itself still answers, with no company
    const described = await client.get(session, '/panel/api/session');
    expect(described.statusCode).toBe(200);
    expect(described.json().data).toMatchObject({ company: null, companies: [], permissions: [], owner: false });
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request without the x-csrf-token, or with another session’s', async () => {
    const session = await signInPanelUser(t, { permissions: ['forms'] });
    const other = await signInPanelUser(t, { permissions: ['forms'] });
    const missing = await client.post(session, '/panel/api/probe/forms', undefined, { csrf: false });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'csrf' } });
    const wrong = await client.post(session, '/panel/api/probe/forms', undefined, { csrf: false, headers: { 'x-csrf-token': other.csrfToken } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.details).toEqual({ reason: 'csrf' });
    expect((await client.post(session, '/panel/api/probe/forms')).statusCode).toBe(200);
  });

  it('refuses a state-changing request from another origin, a null origin, or with neither Origin nor Referer', async () => {
    const session = await signInPanelUser(t, { permissions: ['forms'] });
    for (const origin of ['https://evil.example', 'null', null, `${client.origin}.evil.example`]) {
      const res = await client.post(session, '/panel/api/probe/forms', undefined, { origin });
      expect(res.statusCode, String(origin)).toBe(403);
      expect(res.json().error.details).toEqual({ reason: 'csrf' });
    }
    const evilReferer = await client.post(session, '/panel/api/probe/forms', undefined, { origin: null, headers: { referer: 'https://evil.example/panel/' } });
    expect(evilReferer.statusCode).toBe(403);
  });

  it('accepts the panel’s own Referer when the Origin is absent', async () => {
    const session = await signInPanelUser(t, { permissions: ['forms'] });
    const res = await client.post(session, '/panel/api/probe/forms', undefined, { origin: null, headers: { referer: `${client.origin}/panel/forms` } });
    expect(res.statusCode).toBe(200);
  });

  it('checks the origin of public routes too (no sign-in from another site)', async () => {
    const { email, password } = await panelUser(t);
    const res = await client.post(null, '/panel/api/session', { email, password }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.details).toEqual({ reason: 'csrf' });
    expect(res.cookies).toEqual([]);
  });

  it('lets reads through without a token', async () => {
    const session = await signInPanelUser(t, { permissions: ['forms'] });
    expect((await client.get(session, '/panel/api/probe/forms', { origin: null })).statusCode).toBe(200);
  });
});

describe('strict input', () => {
  it('applies the /v1 input rules: plain integers only, no unknown query parameter, no NUL', async () => {
    const session = await signInPanelUser(t);
    expect((await client.get(session, '/panel/api/probe/any?limit=5')).statusCode).toBe(200);
    for (const query of ['limit=1e1', 'limit=0x5', 'other=1', 'limit=%00']) {
      const res = await client.get(session, `/panel/api/probe/any?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.details.fields.length).toBeGreaterThan(0);
    }
    const forms = await client.get(session, '/panel/api/probe/forms?x=1');
    expect(forms.statusCode).toBe(403);
  });
});

describe('the panel OpenAPI document', () => {
  it('is served without a session at /panel/api/openapi.json, describes the panel routes only, with their permission', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/panel/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe(`${t.ctx.config.publicPanelUrl}/api`);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/session', '/session/company', '/probe/forms']));
    // no /v1 route leaks in (the panel has its own /forms routes, so /v1-only ones are the probe)
    expect(Object.keys(doc.paths).some((path) => path.startsWith('/v1') || path === '/me' || /^\/forms\/\{[^}]+\}\/responses$/.test(path))).toBe(false);
    expect(doc.paths['/probe/forms'].get['x-permission']).toBe('forms');
    expect(doc.paths['/probe/any'].get['x-permission']).toBe('any member');
    expect(doc.paths['/session'].post.security).toEqual([]);
    expect(doc.paths['/session'].post['x-permission']).toBe('public');
    // only the components the panel references (the envelope), not the /v1 ones
    expect(Object.keys(doc.components.schemas)).toContain('ErrorEnvelope');
    expect(Object.keys(doc.components.schemas)).not.toContain('Form');
  });

  it('keeps the panel out of the /v1 document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths).some((path) => path.includes('panel') || path.startsWith('/session'))).toBe(false);
  });
});
