import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { PanelClient, panelUser, signInPanelUser } from '../../../test/panel.js';
import { auditRecords, memberships } from '../../platform/db/schema.js';
import { PERMISSIONS } from '../memberships/index.js';

let t: TestApp;
let client: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  client = new PanelClient(t);
});
afterAll(() => t?.close());

async function auditOf(companyId: string, action: string) {
  return t.ctx.db.select().from(auditRecords).where(and(eq(auditRecords.companyId, companyId), eq(auditRecords.action, action)));
}

describe('GET /panel/api/members', () => {
  it('lists the company’s members with permissions and owner flag, owners first; needs settings', async () => {
    const owner = await signInPanelUser(t, { owner: true, name: 'Olga Owner' });
    const reader = await signInPanelUser(t, { companyId: owner.companyId, permissions: ['settings', 'forms'], name: 'Sam Settings' });
    await panelUser(t, { companyId: (await t.company()).id, name: 'Elsewhere' });
    const res = await client.get(reader, '/panel/api/members');
    expect(res.statusCode).toBe(200);
    const members = res.json().data;
    expect(members.map((m: { name: string }) => m.name)).toEqual(['Olga Owner', 'Sam Settings']);
    expect(members[0]).toMatchObject({ userId: owner.user.id, owner: true, permissions: [...PERMISSIONS], secondFactor: false });
    expect(members[1]).toMatchObject({ userId: reader.user.id, owner: false, permissions: ['forms', 'settings'] });

    const outsider = await signInPanelUser(t, { companyId: owner.companyId, permissions: ['forms'] });
    const refused = await client.get(outsider, '/panel/api/members');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'settings' } });
  });
});

describe('PUT /panel/api/members/:userId', () => {
  it('changes permissions, applied at the member’s next request, and records who changed what', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const member = await signInPanelUser(t, { companyId: owner.companyId, permissions: ['forms'] });
    expect((await client.get(member, '/panel/api/members')).statusCode).toBe(403);

    const res = await client.put(owner, `/panel/api/members/${member.user.id}`, { permissions: ['settings', 'responses', 'settings'], owner: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ userId: member.user.id, owner: false, permissions: ['responses', 'settings'] });
    // the member's sessions in this company are ended (design: sessions rotate at permission changes): signing in again gives the new set
    expect((await client.get(member, '/panel/api/session')).statusCode).toBe(401);
    const again = { ...member, ...(await client.signIn(member.user.email, member.password)) };
    expect((await client.get(again, '/panel/api/members')).statusCode).toBe(200);
    expect((await client.get(again, '/panel/api/session')).json().data.permissions).toEqual(['responses', 'settings']);
    // setting the same set again changes nothing, so it ends nothing
    expect((await client.put(owner, `/panel/api/members/${member.user.id}`, { permissions: ['responses', 'settings'], owner: false })).statusCode).toBe(200);
    expect((await client.get(again, '/panel/api/session')).statusCode).toBe(200);
    expect((await client.get(owner, '/panel/api/session')).statusCode).toBe(200);

    const [record] = await auditOf(owner.companyId!, 'member.permissions_changed');
    expect(record).toMatchObject({
      actorUserId: owner.user.id,
      details: { userId: member.user.id, before: { owner: false, permissions: ['forms'] }, after: { owner: false, permissions: ['responses', 'settings'] } },
    });
  });

  it('is for owners only: a member with settings cannot change anyone (not even themselves)', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const admin = await signInPanelUser(t, { companyId: owner.companyId, permissions: ['settings'] });
    const res = await client.put(admin, `/panel/api/members/${admin.user.id}`, { permissions: [...PERMISSIONS], owner: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'owner' } });
    const [row] = await t.ctx.db.select().from(memberships).where(eq(memberships.userId, admin.user.id));
    expect(row).toMatchObject({ owner: false, permissions: ['settings'] });
  });

  it('refuses to demote the last owner, and allows it once another owner exists', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const demote = await client.put(owner, `/panel/api/members/${owner.user.id}`, { permissions: ['forms'], owner: false });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'owner', code: 'invalid_value' }] } });
    expect(demote.json().error.details.fields[0].message).toMatch(/at least one owner/);

    const second = await signInPanelUser(t, { companyId: owner.companyId, permissions: [] });
    expect((await client.put(owner, `/panel/api/members/${second.user.id}`, { permissions: [], owner: true })).statusCode).toBe(200);
    const now = await client.put(owner, `/panel/api/members/${owner.user.id}`, { permissions: ['forms'], owner: false });
    expect(now.statusCode).toBe(200);
    expect(now.json().data).toMatchObject({ owner: false, permissions: ['forms'] });
    // the demoted owner's session ended with the change; signed in again, they lack the owner's rights
    expect((await client.put(owner, `/panel/api/members/${second.user.id}`, { permissions: [], owner: false })).statusCode).toBe(401);
    const again = { ...owner, ...(await client.signIn(owner.user.email, owner.password)) };
    expect((await client.put(again, `/panel/api/members/${second.user.id}`, { permissions: [], owner: false })).statusCode).toBe(403);
  });

  it('answers 400 for unknown permissions and 404 for a member of another company', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const member = await signInPanelUser(t, { companyId: owner.companyId });
    const bad = await client.put(owner, `/panel/api/members/${member.user.id}`, { permissions: ['everything'], owner: false });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    expect(bad.json().error.details.fields[0].path).toMatch(/^permissions/);

    const stranger = await panelUser(t, {});
    const res = await client.put(owner, `/panel/api/members/${stranger.user.id}`, { permissions: [], owner: false });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});

describe('DELETE /panel/api/members/:userId', () => {
  it('removes a member (their next request no longer reaches the company) and records it', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const member = await signInPanelUser(t, { companyId: owner.companyId, permissions: ['settings'] });
    const res = await client.delete(owner, `/panel/api/members/${member.user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ removed: true });
    // their session in this company ended: the old token no longer works at all
    expect((await client.get(member, '/panel/api/session')).statusCode).toBe(401);
    expect((await client.get(member, '/panel/api/members')).statusCode).toBe(401);
    expect((await client.get(owner, '/panel/api/members')).json().data.map((m: { userId: string }) => m.userId)).toEqual([owner.user.id]);
    const [record] = await auditOf(owner.companyId!, 'member.removed');
    expect(record).toMatchObject({ actorUserId: owner.user.id, details: { userId: member.user.id, email: member.user.email } });
    expect((await client.delete(owner, `/panel/api/members/${member.user.id}`)).statusCode).toBe(404);
  });

  it('refuses to remove the last owner, themselves included', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const res = await client.delete(owner, `/panel/api/members/${owner.user.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'userId', code: 'invalid_value' }] } });
    expect(await auditOf(owner.companyId!, 'member.removed')).toEqual([]);
  });

  it('keeps one owner when two owners remove each other at the same moment', async () => {
    const a = await signInPanelUser(t, { owner: true });
    const b = await signInPanelUser(t, { companyId: a.companyId, owner: true });
    const [one, two] = await Promise.all([client.delete(a, `/panel/api/members/${b.user.id}`), client.delete(b, `/panel/api/members/${a.user.id}`)]);
    // one wins; the other is refused by the last-owner rule (400) or, if it started after, no longer signed in (401: removal ended its session)
    const codes = [one.statusCode, two.statusCode].sort();
    expect(codes[0]).toBe(200);
    expect([400, 401]).toContain(codes[1]);
    const owners = await t.ctx.db.select().from(memberships).where(and(eq(memberships.companyId, a.companyId!), eq(memberships.owner, true)));
    expect(owners).toHaveLength(1);
  });
});
