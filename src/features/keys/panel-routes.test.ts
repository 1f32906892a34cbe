import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/eventually.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser, type PanelSignIn, type PanelClient } from '../../../test/panel.js';
import { SCOPES } from './scopes.js';

let t: TestApp;
let member: PanelSignIn & { client: PanelClient };
let panel: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  member = await signInPanelUser(t, { permissions: ['integrations'] });
  panel = member.client;
});
afterAll(async () => t?.close());

const audits = async (companyId: string, action: string) =>
  (await t.ctx.pool.query('SELECT actor_user_id, actor_email, details FROM audit_records WHERE company_id = $1 AND action = $2 ORDER BY created_at, id', [companyId, action])).rows;

async function createKey(body: object, session: PanelSignIn = member) {
  return panel.post(session, '/panel/api/keys', body);
}

describe('panel API keys', () => {
  it('creates a key whose token, shown once, calls /v1/me; the list never shows it; the act is audited', async () => {
    const res = await createKey({ name: '  SIS integration ', scopes: ['surveys:read', 'invites:write'], rateLimitPerMin: 120 });
    expect(res.statusCode).toBe(201);
    const { key, token } = res.json().data;
    expect(key).toMatchObject({ name: 'SIS integration', scopes: ['surveys:read', 'invites:write'], rateLimitPerMin: 120, revokedAt: null, lastUsedAt: null, expiresAt: null });
    expect(token).toMatch(new RegExp(`^qk_${key.tokenId}_`));

    const me = await t.get(token, '/v1/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().data.company.id).toBe(member.companyId);

    const list = await panel.get(member, '/panel/api/keys');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(token.split('_')[2]);
    const listed = list.json().data.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ id: key.id, tokenId: key.tokenId });
    // The /v1/me call above is the key's last use (written without blocking the request).
    await expect.poll(async () => (await panel.get(member, '/panel/api/keys')).json().data.find((k: { id: string }) => k.id === key.id).lastUsedAt).toBe(t.clock.now().toISOString());

    expect(await audits(member.companyId!, 'key.created')).toContainEqual({
      actor_user_id: member.user.id,
      actor_email: member.user.email,
      details: { keyId: key.id, name: 'SIS integration', scopes: ['surveys:read', 'invites:write'] },
    });
  });

  it('takes an expiry in the future and refuses one in the past, a blank name and an unknown scope beside their fields', async () => {
    const later = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    const ok = await createKey({ name: 'Expiring', scopes: [], expiresAt: later });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.key.expiresAt).toBe(later);

    const past = await createKey({ name: 'Old', scopes: [], expiresAt: new Date(t.clock.now().getTime() - 1000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.details.fields).toEqual([expect.objectContaining({ path: 'expiresAt', code: 'invalid_value' })]);

    const blank = await createKey({ name: '   ', scopes: [] });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.details.fields).toEqual([expect.objectContaining({ path: 'name', code: 'required' })]);

    const scope = await createKey({ name: 'x', scopes: ['surveys:write'] });
    expect(scope.statusCode).toBe(400);
    expect(scope.json().error.details.fields.map((f: { path: string }) => f.path)).toContain('scopes[0]');

    const extra = await createKey({ name: 'x', scopes: [], companyId: '00000000-0000-7000-8000-000000000000' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error.details.fields).toContainEqual(expect.objectContaining({ path: 'companyId', code: 'unknown_field' }));
    expect(await audits(member.companyId!, 'key.created')).not.toContainEqual(expect.objectContaining({ details: expect.objectContaining({ name: 'Old' }) }));
  });

  it('revokes a key: /v1 refuses it at once, the list shows when, the act is audited', async () => {
    const { key, token } = (await createKey({ name: 'To revoke', scopes: [] })).json().data;
    expect((await t.get(token, '/v1/me')).statusCode).toBe(200);
    const res = await panel.post(member, `/panel/api/keys/${key.id}/revoke`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: key.id, revokedAt: t.clock.now().toISOString() });
    await eventually(async () => (await t.get(token, '/v1/me')).statusCode === 401);
    expect(await audits(member.companyId!, 'key.revoked')).toContainEqual({ actor_user_id: member.user.id, actor_email: member.user.email, details: { keyId: key.id, name: 'To revoke' } });
  });

  it('pages the list with a cursor, newest first, every key once; a cursor of another company or a page number is refused', async () => {
    const owner = await signInPanelUser(t, { permissions: ['integrations'] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.unshift((await t.key(owner.companyId!)).id);
      t.clock.advance(i % 2 ? 0 : 1000); // equal times too: the id breaks the tie
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    const metas = [];
    do {
      const res = await panel.get(owner, `/panel/api/keys?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.json().data.map((k: { id: string }) => k.id));
      metas.push(res.json().meta);
      cursor = res.json().meta.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect(metas.map((m) => [m.limit, m.hasMore])).toEqual([[2, true], [2, true], [2, false]]);

    const first = (await panel.get(owner, '/panel/api/keys?limit=2')).json().meta.nextCursor;
    const stolen = await panel.get(member, `/panel/api/keys?limit=2&cursor=${encodeURIComponent(first)}`);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.code).toBe('INVALID_CURSOR');
    expect((await panel.get(owner, `/panel/api/keys?cursor=${encodeURIComponent(first.slice(0, -2))}xx`)).json().error.code).toBe('INVALID_CURSOR');
    expect((await panel.get(owner, '/panel/api/keys?page=2')).json().error.code).toBe('PAGE_NOT_SUPPORTED');
    expect((await panel.get(owner, '/panel/api/keys?limit=101')).statusCode).toBe(400);
  });

  it('lists the scopes a key may have', async () => {
    const res = await panel.get(member, '/panel/api/keys/scopes');
    expect(res.json().data).toEqual([...SCOPES]);
  });

  it("keeps companies apart: another company's keys are neither listed nor revocable (404)", async () => {
    const other = await signInPanelUser(t, { permissions: ['integrations'] });
    const { key, token } = (await createKey({ name: 'Theirs', scopes: [] }, other)).json().data;
    expect((await panel.get(member, '/panel/api/keys')).json().data.map((k: { id: string }) => k.id)).not.toContain(key.id);
    const res = await panel.post(member, `/panel/api/keys/${key.id}/revoke`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect((await panel.post(member, '/panel/api/keys/not-a-uuid/revoke')).statusCode).toBe(404);
    expect((await t.get(token, '/v1/me')).statusCode).toBe(200);
  });

  it('needs a session (401), the integrations permission (403) and the CSRF token', async () => {
    expect((await panel.get(null, '/panel/api/keys')).statusCode).toBe(401);
    const outsider = await signInPanelUser(t, { permissions: ['forms', 'settings'] });
    const refused = await panel.post(outsider, '/panel/api/keys', { name: 'x', scopes: [] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.details).toEqual({ permission: 'integrations' });
    expect((await panel.get(outsider, '/panel/api/keys')).statusCode).toBe(403);
    const owner = await signInPanelUser(t, { owner: true });
    expect((await panel.get(owner, '/panel/api/keys')).statusCode).toBe(200);
    const noCsrf = await panel.post(member, '/panel/api/keys', { name: 'x', scopes: [] }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.details).toEqual({ reason: 'csrf' });
    expect((await t.ctx.pool.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = 'x'`)).rows[0].n).toBe(0);
  });
});
