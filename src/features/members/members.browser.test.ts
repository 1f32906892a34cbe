/**
 * Members, invitations, My account and the second factor in Chromium against the real server:
 * an owner invites a colleague who accepts through the development mailbox's link; a member is shown
 * the "no permission" page; a POST from another origin is refused; two-step verification is turned on
 * and used to sign in. Every page passes axe at 390x844 and 1280x800 (test/panel-browser.ts).
 */
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser } from '../../../test/panel-browser.js';
import { panelUser } from '../../../test/panel.js';
import { totpCode } from '../sessions/totp.js';

describe.skipIf(!chromiumRuns('the members browser tests'))('members and account in Chromium', () => {
  let p: PanelBrowser;
  beforeAll(async () => {
    p = await startPanelBrowser();
  }, 240_000);
  afterAll(async () => {
    await p?.close();
  });

  async function signIn(page: Page, email: string, password: string) {
    await page.goto(`${p.origin}/panel/sign-in`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** The pointer off every control, so axe judges the page's colours, not a hover state. */
  async function check(page: Page, name: string) {
    await page.mouse.move(0, 799);
    await checkPage(page, name);
  }

  async function acceptLinkFor(email: string): Promise<string> {
    await expect
      .poll(async () => (await p.t.ctx.db.execute(sql`SELECT 1 FROM dev_mail WHERE recipient = ${email}`)).rows.length)
      .toBe(1);
    const { rows } = await p.t.ctx.db.execute<{ text_body: string }>(sql`SELECT text_body FROM dev_mail WHERE recipient = ${email}`);
    return /(http\S+\/accept#token=[A-Za-z0-9_-]{43})/.exec(rows[0].text_body)![1];
  }

  it('an owner invites a colleague, who accepts through the mailed link and lands signed in', async () => {
    const company = await p.t.company('Escola Norte');
    const owner = await panelUser(p.t, { companyId: company.id, owner: true, name: 'Olga Owner' });
    const { context, page } = await p.open();
    await signIn(page, owner.email, owner.password);
    await page.getByRole('heading', { name: /^Hello, Olga/ }).waitFor();
    await page.goto(`${p.origin}/panel/members`);
    await page.getByText('Olga Owner (you)').waitFor();
    await check(page, 'members');

    await page.getByRole('button', { name: 'Invite a colleague' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a colleague' });
    await dialog.getByLabel('E-mail').fill('not an address');
    await dialog.getByRole('button', { name: 'Send the invitation' }).click();
    // the server's field error, beside the field
    await expect.poll(() => dialog.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('E-mail').fill('nina@school.test');
    await dialog.getByLabel('Forms').check();
    await dialog.getByLabel('Responses and statistics').check();
    await check(page, 'members-invite');
    await dialog.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText('nina@school.test', { exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'member.invited' }).waitFor();
    await check(page, 'members-audit');
    await context.close();

    const link = await acceptLinkFor('nina@school.test');
    expect(link.startsWith(`${p.origin}/panel/accept#token=`)).toBe(true);
    const colleague = await p.open();
    await colleague.page.goto(link);
    await colleague.page.getByLabel('Your name').fill('Nina Nova');
    await check(colleague.page, 'accept');
    await colleague.page.getByLabel('New password').fill('a long new password');
    await colleague.page.getByLabel('Type the password again').fill('a long new password');
    await colleague.page.getByRole('button', { name: 'Join and sign in' }).click();
    await colleague.page.getByRole('heading', { name: /^Hello, Nina Nova/ }).waitFor();
    // a colleague with forms and responses only: no Members in the navigation
    expect(await colleague.page.getByRole('link', { name: 'Members' }).count()).toBe(0);
    await colleague.context.close();
  }, 420_000);

  it('a member without integrations opening /panel/integrations sees a page saying so', async () => {
    const member = await panelUser(p.t, { permissions: ['forms'] });
    const { context, page } = await p.open();
    await signIn(page, member.email, member.password);
    await page.getByRole('heading', { name: /^Hello, / }).waitFor();
    await page.goto(`${p.origin}/panel/integrations`);
    await page.getByRole('heading', { name: 'You do not have permission to see this' }).waitFor();
    await page.getByText('ask an owner of the company').waitFor();
    await check(page, 'forbidden-integrations');
    await context.close();
  }, 300_000);

  it('after too many wrong passwords, sign-in says to wait instead of trying again', async () => {
    const person = await panelUser(p.t, {});
    const { context, page } = await p.open();
    await page.goto(`${p.origin}/panel/sign-in`);
    await page.getByLabel('E-mail').fill(person.email);
    for (let attempt = 0; attempt < 5; attempt++) {
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(`wrong password ${attempt}`);
      const [answer] = await Promise.all([page.waitForResponse(`${p.origin}/panel/api/session`), page.getByRole('button', { name: 'Sign in' }).click()]);
      expect(answer.status()).toBe(401);
      await page.getByText('The e-mail or the password is not right.').waitFor();
    }
    // the right password now meets the exhausted budget
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(person.password);
    const [answer] = await Promise.all([page.waitForResponse(`${p.origin}/panel/api/session`), page.getByRole('button', { name: 'Sign in' }).click()]);
    expect(answer.status()).toBe(429);
    expect(answer.headers()['retry-after']).toMatch(/^\d+$/);
    await page.getByText('Too many attempts. Wait a few minutes and try again.').waitFor();
    await check(page, 'sign-in-budget');
    await context.close();
  }, 300_000);

  it('a POST to the panel API from another origin is refused, even with the session in the same browser', async () => {
    const owner = await panelUser(p.t, { owner: true });
    const { context, page } = await p.open();
    await signIn(page, owner.email, owner.password);
    await page.getByRole('heading', { name: /^Hello, / }).waitFor();
    // a page of another site posting a form at the panel API (no script can add the CSRF header there)
    await page.route('http://elsewhere.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><title>x</title><form method="post" enctype="text/plain" action="${p.origin}/panel/api/invitations">
          <input name='{"email":"victim@school.test","permissions":[],"owner":true,"x":"' value='"}'><button>go</button></form>`,
      }),
    );
    await page.goto('http://elsewhere.test/');
    const [answer] = await Promise.all([page.waitForResponse(`${p.origin}/panel/api/invitations`), page.getByRole('button', { name: 'go' }).click()]);
    expect(answer.status()).toBe(403);
    expect(await answer.json()).toMatchObject({ success: false, error: { code: 'FORBIDDEN', details: { reason: 'csrf' } } });
    const { rows } = await p.t.ctx.db.execute(sql`SELECT 1 FROM member_invitations WHERE email = 'victim@school.test'`);
    expect(rows).toEqual([]);
    await context.close();
  }, 300_000);

  it('turns on two-step verification, shows the recovery codes once, then signing in asks for a code', async () => {
    const person = await panelUser(p.t, { permissions: [], name: 'Tomás Totp' });
    const { context, page } = await p.open();
    await signIn(page, person.email, person.password);
    await page.getByRole('heading', { name: /^Hello, Tomás/ }).waitFor();
    await page.goto(`${p.origin}/panel/account`);
    await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    await page.getByText('This session').waitFor();
    await check(page, 'account');

    await page.getByRole('button', { name: 'Set up two-step verification' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!;
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await page.getByLabel('6-digit code').fill('000000' === totpCode(secret, p.t.clock.now()) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.getByLabel('6-digit code').getAttribute('aria-invalid')).toBe('true');
    await check(page, 'account-second-factor-setup');
    await page.getByLabel('6-digit code').fill(totpCode(secret, p.t.clock.now()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByTestId('recovery-codes').getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    const recoveryCode = (await codes.first().textContent())!.trim();
    await check(page, 'account-recovery-codes');
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByText('On. Signing in also needs a code').waitFor();
    await context.close();

    // a later time step: the code used to confirm is never accepted again
    p.t.clock.advance(30_000);
    const again = await p.open();
    await signIn(again.page, person.email, person.password);
    await again.page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await check(again.page, 'sign-in-code');
    await again.page.getByRole('textbox', { name: /^Code/ }).fill(totpCode(secret, p.t.clock.now()));
    await again.page.getByRole('button', { name: 'Verify' }).click();
    await again.page.getByRole('heading', { name: /^Hello, Tomás/ }).waitFor();
    await again.context.close();

    // without the phone: a recovery code, typed as printed, signs in once
    const lost = await p.open();
    await signIn(lost.page, person.email, person.password);
    await lost.page.getByRole('textbox', { name: /^Code/ }).fill(recoveryCode.toLowerCase());
    await lost.page.getByRole('button', { name: 'Verify' }).click();
    await lost.page.getByRole('heading', { name: /^Hello, Tomás/ }).waitFor();
    await lost.context.close();
  }, 420_000);
});
