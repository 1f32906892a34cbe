import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/eventually.js';
import { startTestApp, TEST_START, type TestApp } from '../../../test/harness.js';
import { PanelClient, panelUser } from '../../../test/panel.js';
import { listDevMail } from '../messaging/dev-mailbox.js';
import { auditRecords, oneTimeLinks, sessions } from '../../platform/db/schema.js';
import { createPanelUser } from './create-panel-user.js';
import { ensureDemoOwner } from './ensure-demo-owner.js';
import { requestPasswordReset } from './request-password-reset.js';
import type { Mailer, OutgoingMail } from '../../lib/providers.js';
import { FAILED_SIGN_INS_PER_ACCOUNT, FAILED_SIGN_INS_PER_ADDRESS } from './sign-in-budget.js';

let t: TestApp;
let client: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  client = new PanelClient(t);
});
afterAll(() => t?.close());

/** The token of the newest mail to `to` (from the dev mailbox, as /dev/mail shows it, once it arrives: reset mails go in the background), with the mail. */
async function mailedLink(to: string) {
  const newest = async () => (await listDevMail(t.ctx.db, t.ctx)).find((m) => m.to === to);
  await eventually(async () => (await newest()) !== undefined);
  const mail = (await newest())!;
  const url = /(http\S+#token=[A-Za-z0-9_-]{43})/.exec(mail.text)![1];
  return { mail, url, token: new URL(url).hash.slice('#token='.length) };
}

const tokenOf = (url: string) => new URL(url).hash.slice('#token='.length);

describe('password reset by e-mail', () => {
  it('mails a set-password link that sets the password once, signs out every other session and signs in', async () => {
    t.clock.set(TEST_START);
    const { user, email, password } = await panelUser(t, { name: 'Bea <b>Costa</b> & "co"' });
    const before = await client.signIn(email, password);
    const res = await client.post(null, '/panel/api/password-reset', { email: email.toUpperCase() });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ success: true, data: { sent: true } });

    const { mail, url, token } = await mailedLink(email);
    expect(url.startsWith(`${t.ctx.config.publicPanelUrl}/set-password#token=`)).toBe(true);
    expect(mail.subject).toBe('Reset your Quorum password');
    expect(mail.html).toContain('Bea &lt;b&gt;Costa&lt;/b&gt; &amp; &quot;co&quot;');
    expect(mail.html).not.toContain('<b>Costa');
    // only the hash is stored
    const [link] = await t.ctx.db.select().from(oneTimeLinks).where(eq(oneTimeLinks.userId, user.id));
    expect(link.tokenHash.toString('hex')).not.toContain(Buffer.from(token).toString('hex'));
    expect(link.expiresAt.getTime() - link.createdAt.getTime()).toBe(30 * 60 * 1000);

    const short = await client.post(null, '/panel/api/password', { token, password: 'too short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details.fields[0]).toMatchObject({ path: 'password', code: 'too_short' });

    const set = await client.post(null, '/panel/api/password', { token, password: 'a brand new passphrase' });
    expect(set.statusCode).toBe(200);
    expect(set.json().data.user.email).toBe(email);
    const fresh = set.cookies.find((c) => c.name === 'quorum_session')!.value;
    // every other session is gone; the new one works
    expect((await client.get({ ...before, password }, '/panel/api/session')).statusCode).toBe(401);
    expect((await client.get({ ...before, password, cookie: fresh }, '/panel/api/session')).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
    // single use
    const again = await client.post(null, '/panel/api/password', { token, password: 'another passphrase!' });
    expect(again.statusCode).toBe(401);
    // the new password signs in, the old does not
    expect((await client.post(null, '/panel/api/session', { email, password })).statusCode).toBe(401);
    expect((await client.post(null, '/panel/api/session', { email, password: 'a brand new passphrase' })).statusCode).toBe(200);
    const actions = (await t.ctx.db.select().from(auditRecords).where(eq(auditRecords.actorUserId, user.id))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['password.reset_requested', 'password.set']));
  });

  it('answers before the mail is sent, so a known address is not told apart by the time of the answer', async () => {
    const { email } = await panelUser(t);
    // a mail server that holds every message until the test lets it go
    const held: OutgoingMail[] = [];
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const mailer: Mailer = { send: async (mail) => (held.push(mail), await gate, { messageId: 'held' }), close: async () => {} };
    const devMailer = t.ctx.mailer;
    t.ctx.mailer = mailer;
    try {
      const res = await client.post(null, '/panel/api/password-reset', { email }, { remoteAddress: '10.9.1.1' });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ success: true, data: { sent: true } });
      await eventually(async () => held.length === 1);
      expect(held[0]).toMatchObject({ to: email, subject: 'Reset your Quorum password' });
    } finally {
      letGo();
      t.ctx.mailer = devMailer;
    }
  }, 15_000);

  it('answers an unknown address the same and mails nothing', async () => {
    const before = (await listDevMail(t.ctx.db, t.ctx)).length;
    const res = await client.post(null, '/panel/api/password-reset', { email: 'nobody-here@school.test' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ success: true, data: { sent: true } });
    // the service tells what its background part did
    const { delivery } = await requestPasswordReset(t.ctx.db, t.ctx, { email: 'nobody-here@school.test', ip: '10.9.2.1' });
    expect(await delivery).toEqual({ mailed: false });
    const { email } = await panelUser(t);
    expect(await (await requestPasswordReset(t.ctx.db, t.ctx, { email, ip: '10.9.2.2' })).delivery).toEqual({ mailed: true });
    expect((await listDevMail(t.ctx.db, t.ctx)).filter((m) => m.to !== email)).toHaveLength(before);
  });

  it('refuses an expired link (30 minutes) and a token of another purpose', async () => {
    t.clock.set(TEST_START);
    const { email } = await panelUser(t);
    await client.post(null, '/panel/api/password-reset', { email }, { remoteAddress: '10.9.0.1' });
    const { token } = await mailedLink(email);
    t.clock.advance(30 * 60 * 1000);
    const expired = await client.post(null, '/panel/api/password', { token, password: 'a brand new passphrase' });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('UNAUTHORIZED');
    t.clock.set(TEST_START);
    // a set-password token is no sign-in link
    const { email: other } = await panelUser(t);
    await client.post(null, '/panel/api/password-reset', { email: other }, { remoteAddress: '10.9.0.2' });
    expect((await client.post(null, '/panel/api/session/link', { token: (await mailedLink(other)).token })).statusCode).toBe(401);
    expect((await client.post(null, '/panel/api/password', { token: 'x'.repeat(43), password: 'a brand new passphrase' })).statusCode).toBe(401);
  });

  it('limits reset requests per account (429 with retry-after)', async () => {
    const { email } = await panelUser(t);
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await client.post(null, '/panel/api/password-reset', { email }, { remoteAddress: `10.8.0.${i + 1}` }));
    expect(answers.slice(0, 3).map((res) => res.statusCode)).toEqual([202, 202, 202]);
    expect(answers[3].statusCode).toBe(429);
    expect(answers[3].json().error.code).toBe('RATE_LIMITED');
    expect(answers[3].headers['retry-after']).toMatch(/^\d+$/);
  });
});

describe('set-password link of a new user (quorum user create)', () => {
  it('lets the new member choose a password and lands them in their company', async () => {
    const company = await t.company('Colégio Leste');
    const created = await createPanelUser(t.ctx.db, t.ctx, { companyId: company.id, email: `new-${Date.now()}@school.test`, permissions: ['forms'], owner: false, actor: null });
    expect(created.setPasswordUrl).toMatch(new RegExp(`^${t.ctx.config.publicPanelUrl}/set-password#token=`));
    const res = await client.post(null, '/panel/api/password', { token: tokenOf(created.setPasswordUrl!), password: 'my own passphrase' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ company: { id: company.id, name: 'Colégio Leste' }, permissions: ['forms'], owner: false });
  });
});

describe('POST /panel/api/session/link (one-time sign-in link)', () => {
  it('signs the demo owner in once; the link cannot be used again', async () => {
    const company = await t.company('Demo School');
    const owner = await ensureDemoOwner(t.ctx.db, t.ctx, { companyId: company.id });
    expect(owner.signInUrl).toMatch(new RegExp(`^${t.ctx.config.publicPanelUrl}/link#token=`));
    expect((await ensureDemoOwner(t.ctx.db, t.ctx, { companyId: company.id })).signInUrl).toBeNull();
    const token = tokenOf(owner.signInUrl!);
    const res = await client.post(null, '/panel/api/session/link', { token });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'quorum_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/panel' });
    expect(res.json().data).toMatchObject({ user: { email: 'owner@demo.school' }, company: { id: company.id }, owner: true });
    const again = await client.post(null, '/panel/api/session/link', { token });
    expect(again.statusCode).toBe(401);
  });
});

describe('failed sign-in budgets', () => {
  it('refuses an account with 429 after its failures, even with the right password, until the minute passes', async () => {
    t.clock.set(TEST_START);
    const { email, password } = await panelUser(t);
    for (let i = 0; i < FAILED_SIGN_INS_PER_ACCOUNT; i += 1) {
      expect((await client.post(null, '/panel/api/session', { email, password: 'wrong password' }, { remoteAddress: `10.7.0.${i + 1}` })).statusCode).toBe(401);
    }
    const locked = await client.post(null, '/panel/api/session', { email, password }, { remoteAddress: '10.7.1.1' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(60_000);
    expect((await client.post(null, '/panel/api/session', { email, password }, { remoteAddress: '10.7.1.1' })).statusCode).toBe(200);
  });

  it('counts parallel wrong guesses one by one: of 15 at once, exactly the budget is answered 401, the rest 429', async () => {
    t.clock.set(TEST_START);
    const { email } = await panelUser(t);
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => client.post(null, '/panel/api/session', { email, password: `wrong guess ${i}` }, { remoteAddress: `10.5.0.${i + 1}` })),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(FAILED_SIGN_INS_PER_ACCOUNT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15 - FAILED_SIGN_INS_PER_ACCOUNT);
  });

  it('refuses a client address after its failures, whichever accounts it tries', async () => {
    t.clock.set(TEST_START);
    const { email, password } = await panelUser(t);
    for (let i = 0; i < FAILED_SIGN_INS_PER_ADDRESS; i += 1) {
      expect((await client.post(null, '/panel/api/session', { email: `guess-${i}@school.test`, password: 'guess' }, { remoteAddress: '10.6.0.1' })).statusCode).toBe(401);
    }
    expect((await client.post(null, '/panel/api/session', { email, password }, { remoteAddress: '10.6.0.1' })).statusCode).toBe(429);
    expect((await client.post(null, '/panel/api/session', { email, password }, { remoteAddress: '10.6.0.2' })).statusCode).toBe(200);
  });
});
