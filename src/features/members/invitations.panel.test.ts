import { sql } from 'drizzle-orm';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { PanelClient, panelUser, signInPanelUser, type PanelSignIn } from '../../../test/panel.js';
import { auditRecords, memberships } from '../../platform/db/schema.js';

let t: TestApp;
let client: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  client = new PanelClient(t);
});
afterAll(() => t?.close());

let addresses = 0;
const newAddress = () => `colleague-${++addresses}-${Date.now()}@school.test`;

/** The newest mail to an address in the development mailbox, and the accept token its link carries. */
async function invitationMailTo(email: string) {
  const { rows } = await t.ctx.db.execute<{ subject: string; text_body: string; html_body: string }>(
    sql`SELECT subject, text_body, html_body FROM dev_mail WHERE recipient = ${email} ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  const mail = rows[0];
  const link = /(\S+\/accept#token=([A-Za-z0-9_-]{43}))/.exec(mail?.text_body ?? '');
  return { mail, link: link?.[1], token: link?.[2] ?? '' };
}

async function invite(owner: PanelSignIn, body: Record<string, unknown>) {
  return client.post(owner, '/panel/api/invitations', body);
}

describe('inviting a colleague', () => {
  it('mails a link to <PUBLIC_PANEL_URL>/accept with the token in the fragment; only its hash is stored', async () => {
    const owner = await signInPanelUser(t, { owner: true, name: 'Olga <Owner>' });
    const email = newAddress();
    const res = await invite(owner, { email, permissions: ['forms', 'invites'] });
    expect(res.statusCode).toBe(201);
    const invitation = res.json().data;
    expect(invitation).toMatchObject({ email, owner: false, permissions: ['forms', 'invites'], invitedBy: { userId: owner.user.id } });
    expect(new Date(invitation.expiresAt).getTime() - t.clock.now().getTime()).toBe(7 * 24 * 3600 * 1000);

    const { mail, link, token } = await invitationMailTo(email);
    expect(link).toBe(`${t.ctx.config.publicPanelUrl}/accept#token=${token}`);
    expect(mail.html_body).toContain('Olga &lt;Owner&gt;');
    expect(mail.html_body).not.toContain('<Owner>');
    const { rows } = await t.ctx.db.execute(sql`SELECT token_hash FROM member_invitations WHERE id = ${invitation.id}`);
    expect(Buffer.from(rows[0].token_hash as Buffer).toString('base64url')).not.toBe(token);
    expect(JSON.stringify(rows)).not.toContain(token);

    const pending = await client.get(owner, '/panel/api/invitations');
    expect(pending.json().data.map((i: { id: string }) => i.id)).toEqual([invitation.id]);
    const [record] = await t.ctx.db.select().from(auditRecords).where(and(eq(auditRecords.companyId, owner.companyId!), eq(auditRecords.action, 'member.invited')));
    expect(record).toMatchObject({ actorUserId: owner.user.id, details: { email, permissions: ['forms', 'invites'] } });
    expect(JSON.stringify(record)).not.toContain(token);
  });

  it('refuses bad input beside its field, a current member, and non-owners', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const bad = await invite(owner, { email: 'not an address', permissions: ['nope'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['email']));

    const member = await signInPanelUser(t, { companyId: owner.companyId, permissions: ['settings'] });
    const again = await invite(owner, { email: member.user.email.toUpperCase(), permissions: [] });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.details.fields).toEqual([expect.objectContaining({ path: 'email', code: 'not_unique' })]);

    const refused = await invite(member, { email: newAddress(), permissions: [] });
    expect(refused.statusCode).toBe(403);
    expect((await client.get(member, '/panel/api/invitations')).statusCode).toBe(200);
  });
});

describe('POST /panel/api/invitations/accept', () => {
  it('creates the account, the membership and a session in the inviting company; the link works once', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const email = newAddress();
    await invite(owner, { email, permissions: ['responses'] });
    const { token } = await invitationMailTo(email);

    const res = await client.post(null, '/panel/api/invitations/accept', { token, name: 'Nina New', password: 'a long new password' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ user: { email, name: 'Nina New' }, company: { id: owner.companyId }, permissions: ['responses'], owner: false });
    const cookie = res.cookies.find((c) => c.name === 'quorum_session');
    expect(cookie).toMatchObject({ httpOnly: true, path: '/panel', sameSite: 'Lax' });
    // the new session works, and the new password signs in
    const newcomer = { cookie: cookie!.value, csrfToken: res.json().data.csrfToken, user: res.json().data.user, password: '', companyId: owner.companyId };
    expect((await client.get(newcomer, '/panel/api/session')).statusCode).toBe(200);
    await client.signIn(email, 'a long new password');

    const again = await client.post(null, '/panel/api/invitations/accept', { token, name: 'Nina New', password: 'a long new password' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.details.fields).toEqual([expect.objectContaining({ path: 'token', code: 'invalid_value' })]);
    expect((await client.get(owner, '/panel/api/invitations')).json().data).toEqual([]);
    const added = await t.ctx.db.select().from(auditRecords).where(and(eq(auditRecords.companyId, owner.companyId!), eq(auditRecords.action, 'member.added')));
    expect(added).toHaveLength(1);
    expect(added[0].details).toMatchObject({ email, newAccount: true, invitedBy: owner.user.id });
  });

  it('checks the new account’s name and password rules beside their fields, leaving the link usable', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const email = newAddress();
    await invite(owner, { email, permissions: [] });
    const { token } = await invitationMailTo(email);
    const res = await client.post(null, '/panel/api/invitations/accept', { token, name: ' ', password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['name', 'password']);
    expect((await client.post(null, '/panel/api/invitations/accept', { token, name: 'Ok', password: 'long enough now' })).statusCode).toBe(200);
  });

  it('adds the membership to an existing account after its password (and second factor) check', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const existing = await panelUser(t, {});
    await invite(owner, { email: existing.email, permissions: ['rosters'] });
    const { token } = await invitationMailTo(existing.email);

    const wrong = await client.post(null, '/panel/api/invitations/accept', { token, name: 'ignored', password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('UNAUTHORIZED');

    const res = await client.post(null, '/panel/api/invitations/accept', { token, name: 'ignored', password: existing.password });
    expect(res.statusCode).toBe(200);
    const session = res.json().data;
    expect(session.company).toMatchObject({ id: owner.companyId });
    expect(session.user.name).not.toBe('ignored');
    expect(session.companies.map((c: { id: string }) => c.id).sort()).toEqual([existing.companyId, owner.companyId].sort());
    const rows = await t.ctx.db.select().from(memberships).where(eq(memberships.userId, existing.user.id));
    expect(rows).toHaveLength(2);
  });

  it('refuses a cancelled, an expired, a replaced or a made-up link', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const accept = (token: string) => client.post(null, '/panel/api/invitations/accept', { token, name: 'X', password: 'long enough password' });

    const cancelledEmail = newAddress();
    const { id } = (await invite(owner, { email: cancelledEmail, permissions: [] })).json().data;
    const cancelled = (await invitationMailTo(cancelledEmail)).token;
    const cancel = await client.delete(owner, `/panel/api/invitations/${id}`);
    expect(cancel.statusCode).toBe(200);
    expect((await accept(cancelled)).statusCode).toBe(400);
    expect((await client.delete(owner, `/panel/api/invitations/${id}`)).statusCode).toBe(404);

    const replacedEmail = newAddress();
    await invite(owner, { email: replacedEmail, permissions: [] });
    const first = (await invitationMailTo(replacedEmail)).token;
    // a later mail is the newest one in the mailbox (the test clock stands still otherwise)
    t.clock.advance(1000);
    await invite(owner, { email: replacedEmail, permissions: ['forms'] });
    const second = (await invitationMailTo(replacedEmail)).token;
    expect(second).not.toBe(first);
    expect((await accept(first)).statusCode).toBe(400);

    const expiringEmail = newAddress();
    await invite(owner, { email: expiringEmail, permissions: [] });
    const expiring = (await invitationMailTo(expiringEmail)).token;
    t.clock.advance(7 * 24 * 3600 * 1000);
    expect((await accept(expiring)).statusCode).toBe(400);

    expect((await accept('A'.repeat(43))).statusCode).toBe(400);
    expect((await accept('short')).statusCode).toBe(400);
  });

  it('cancelling another company’s invitation is 404', async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const other = await signInPanelUser(t, { owner: true });
    const { id } = (await invite(other, { email: newAddress(), permissions: [] })).json().data;
    expect((await client.delete(owner, `/panel/api/invitations/${id}`)).statusCode).toBe(404);
    expect((await client.get(other, '/panel/api/invitations')).json().data).toHaveLength(1);
  });
});
