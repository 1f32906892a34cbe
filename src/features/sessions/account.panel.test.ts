import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { PanelClient, signInPanelUser } from '../../../test/panel.js';
import { auditRecords, sessions } from '../../platform/db/schema.js';
import { FAILED_SIGN_INS_PER_ACCOUNT } from './sign-in-budget.js';

let t: TestApp;
let client: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  client = new PanelClient(t);
});
afterAll(() => t?.close());

describe('PATCH /panel/api/account', () => {
  it('changes the name and language and answers the new session view', async () => {
    const me = await signInPanelUser(t);
    const res = await client.request(me, { method: 'PATCH', url: '/panel/api/account', payload: { name: '  Ana Lima ', language: 'pt-BR' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user).toMatchObject({ name: 'Ana Lima', language: 'pt-BR' });
    const back = await client.request(me, { method: 'PATCH', url: '/panel/api/account', payload: { language: null } });
    expect(back.json().data.user).toMatchObject({ name: 'Ana Lima', language: null });
  });

  it('refuses a blank name or an unknown language beside the field', async () => {
    const me = await signInPanelUser(t);
    const res = await client.request(me, { method: 'PATCH', url: '/panel/api/account', payload: { name: '   ', language: 'fr' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(expect.arrayContaining(['language']));
  });
});

describe('PUT /panel/api/account/password', () => {
  it('needs the current password, then signs out every other session and records it', async () => {
    const me = await signInPanelUser(t, { owner: true });
    const elsewhere = await client.signIn(me.user.email, me.password);
    const wrong = await client.put(me, '/panel/api/account/password', { currentPassword: 'not it at all', newPassword: 'a brand new password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details.fields).toEqual([expect.objectContaining({ path: 'currentPassword', code: 'invalid_value' })]);
    const short = await client.put(me, '/panel/api/account/password', { currentPassword: me.password, newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details.fields[0].path).toBe('newPassword');

    const res = await client.put(me, '/panel/api/account/password', { currentPassword: me.password, newPassword: 'a brand new password' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ otherSessionsEnded: 1 });
    expect((await client.get(me, '/panel/api/session')).statusCode).toBe(200);
    expect((await client.get({ ...me, ...elsewhere }, '/panel/api/session')).statusCode).toBe(401);
    await expect(client.signIn(me.user.email, me.password)).rejects.toThrow(/401/);
    await client.signIn(me.user.email, 'a brand new password');
    const records = await t.ctx.db.select().from(auditRecords).where(and(eq(auditRecords.actorUserId, me.user.id), eq(auditRecords.action, 'account.password_changed')));
    expect(records).toHaveLength(1);
    expect(JSON.stringify(records)).not.toContain('a brand new password');
  });
});

describe('wrong current password on My account', () => {
  it('counts against the account’s failed sign-in budget: past it, 429 even with the right password, and sign-in too', async () => {
    const me = await signInPanelUser(t);
    for (let i = 0; i < FAILED_SIGN_INS_PER_ACCOUNT; i += 1) {
      expect((await client.put(me, '/panel/api/account/password', { currentPassword: `guess ${i}`, newPassword: 'a brand new password' })).statusCode).toBe(400);
    }
    const locked = await client.put(me, '/panel/api/account/password', { currentPassword: me.password, newPassword: 'a brand new password' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('RATE_LIMITED');
    expect(locked.headers['retry-after']).toMatch(/^\d+$/);
    const disable = await client.post(me, '/panel/api/account/second-factor/disable', { password: me.password, code: '000000' });
    expect(disable.statusCode).toBe(429);
    expect((await client.post(null, '/panel/api/session', { email: me.user.email, password: me.password }, { remoteAddress: '10.4.0.1' })).statusCode).toBe(429);
    t.clock.advance(60_000);
    expect((await client.put(me, '/panel/api/account/password', { currentPassword: me.password, newPassword: 'a brand new password' })).statusCode).toBe(200);
  });

  it('lets a right password through without spending the budget', async () => {
    const me = await signInPanelUser(t);
    let password = me.password;
    for (let i = 0; i <= FAILED_SIGN_INS_PER_ACCOUNT; i += 1) {
      const next = `another new password ${i}`;
      expect((await client.put(me, '/panel/api/account/password', { currentPassword: password, newPassword: next })).statusCode).toBe(200);
      password = next;
    }
  });
});

describe('account sessions', () => {
  it('lists the person’s live sessions with address and browser, marks the current one, and signs out one or all others', async () => {
    const me = await signInPanelUser(t);
    const laptop = { ...me, ...(await client.signIn(me.user.email, me.password)) };
    const phone = { ...me, ...(await client.signIn(me.user.email, me.password)) };
    const someoneElse = await signInPanelUser(t);

    const list = await client.get(me, '/panel/api/account/sessions', { headers: { 'user-agent': 'ignored for listing' } });
    expect(list.statusCode).toBe(200);
    const rows = list.json().data;
    expect(rows).toHaveLength(3);
    expect(rows.filter((r: { current: boolean }) => r.current)).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ip: '127.0.0.1', createdAt: expect.any(String), lastSeenAt: expect.any(String) });

    const phoneId = (await client.get(phone, '/panel/api/account/sessions')).json().data.find((r: { current: boolean }) => r.current).id;
    const end = await client.delete(me, `/panel/api/account/sessions/${phoneId}`);
    expect(end.json().data).toEqual({ ended: 1 });
    expect((await client.get(phone, '/panel/api/session')).statusCode).toBe(401);

    const theirs = (await client.get(someoneElse, '/panel/api/account/sessions')).json().data[0].id;
    expect((await client.delete(me, `/panel/api/account/sessions/${theirs}`)).statusCode).toBe(404);
    expect((await client.get(someoneElse, '/panel/api/session')).statusCode).toBe(200);

    const others = await client.delete(me, '/panel/api/account/sessions');
    expect(others.json().data).toEqual({ ended: 1 });
    expect((await client.get(laptop, '/panel/api/session')).statusCode).toBe(401);
    expect((await client.get(me, '/panel/api/account/sessions')).json().data).toHaveLength(1);
  });

  it('keeps the browser a session signed in from', async () => {
    const me = await signInPanelUser(t);
    const res = await client.post(null, '/panel/api/session', { email: me.user.email, password: me.password }, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' } });
    const cookie = res.cookies.find((c) => c.name === 'quorum_session')!.value;
    const [row] = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, me.user.id)).orderBy(sessions.createdAt);
    expect(row).toBeDefined();
    const list = await client.get({ ...me, cookie }, '/panel/api/account/sessions');
    expect(list.json().data.find((r: { current: boolean }) => r.current).userAgent).toBe('Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0');
  });
});
