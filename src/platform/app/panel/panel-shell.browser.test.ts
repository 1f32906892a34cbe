/**
 * The panel's shell in Chromium: the sign-in page, the languages, the not-found page; then the
 * signed-in frame against the contract's answers for /panel/api (the session routes are answered
 * in the browser with contract-shaped bodies until the panel API is mounted here), and one real
 * sign-in through the server once it is.
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser, signIn } from '../../../../test/panel-browser.js';
import { panelUser } from '../../../../test/panel.js';

const COMPANY = { id: '0190f0c4-0000-7000-8000-000000000001', name: 'Escola Norte' };
const OTHER = { id: '0190f0c4-0000-7000-8000-000000000002', name: 'Escola Sul' };

function session(permissions: string[]) {
  return {
    user: { id: '0190f0c4-0000-7000-8000-0000000000aa', email: 'ana@example.com', name: 'Ana Lima', language: null, secondFactor: true },
    companies: [
      { ...COMPANY, owner: false, permissions },
      { ...OTHER, owner: true, permissions: [] },
    ],
    company: COMPANY,
    permissions,
    owner: false,
    csrfToken: 'csrf-token-of-this-session',
  };
}

const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
const refusal = (code: string, details: unknown = null) => ({ success: false, error: { code, message: code, details } });

describe.skipIf(!chromiumRuns('the panel browser tests'))('panel shell in Chromium', () => {
  let p: PanelBrowser;
  beforeAll(async () => {
    p = await startPanelBrowser();
  }, 180_000);
  afterAll(async () => {
    await p?.close();
  });

  it('the sign-in page: labelled fields, axe-clean at both sizes, no CSP complaint, nothing fetched elsewhere', async () => {
    const { context, page, cspErrors } = await p.open();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const answer = await page.goto(`${p.origin}/panel/sign-in`);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect.poll(() => page.getByLabel('E-mail').isVisible()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Password', exact: true }).getAttribute('autocomplete')).toBe('current-password');
    await checkPage(page, 'sign-in');
    // the skip link is the first stop of the keyboard
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    expect(cspErrors).toEqual([]);
    expect(requests.every((url) => url.startsWith(p.origin))).toBe(true);
    await context.close();
  }, 240_000);

  it('switching to pt-BR shows Portuguese, marks the page pt-BR and is remembered; a Spanish browser starts in Spanish', async () => {
    const { context, page } = await p.open();
    await page.goto(`${p.origin}/panel/sign-in`);
    await page.getByLabel('Language').selectOption('pt-BR');
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Senha', exact: true }).isVisible()).toBe(true);
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
    await checkPage(page, 'sign-in-pt-BR');
    await page.reload();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await context.close();

    const spanish = await p.open({ locale: 'es-ES' });
    await spanish.page.goto(`${p.origin}/panel/sign-in`);
    await spanish.page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
    await spanish.context.close();
  }, 240_000);

  it('a one-time page without its token says the link does not work and takes the fragment out of the address', async () => {
    const { context, page } = await p.open();
    await page.goto(`${p.origin}/panel/set-password#token=short`);
    await page.getByText('This link does not work').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await checkPage(page, 'set-password-invalid');
    await context.close();
  }, 60_000);

  describe('signed in (the contract answers of /panel/api routed in the browser)', () => {
    /** Answers the session routes as the contract says; records what the app sent. */
    async function contractApi(page: Page, permissions: string[], options: { secondFactor?: boolean } = {}) {
      const sent: { method: string; path: string; csrf: string | undefined; body: unknown }[] = [];
      let signedIn = false;
      await page.route(`${p.origin}/panel/api/**`, async (route) => {
        const request = route.request();
        const path = new URL(request.url()).pathname.replace('/panel/api', '');
        sent.push({ method: request.method(), path, csrf: request.headers()['x-csrf-token'], body: request.postDataJSON() });
        if (path === '/session' && request.method() === 'GET') return signedIn ? json(route, 200, { success: true, data: session(permissions) }) : json(route, 401, refusal('UNAUTHORIZED'));
        if (path === '/session' && request.method() === 'POST') {
          const body = request.postDataJSON() as { password: string; code?: string };
          if (body.password !== 'correct horse battery') return json(route, 401, refusal('UNAUTHORIZED'));
          if (options.secondFactor && body.code !== '123456') return json(route, 401, refusal('UNAUTHORIZED', { secondFactor: true }));
          signedIn = true;
          return json(route, 200, { success: true, data: session(permissions) });
        }
        if (path === '/session' && request.method() === 'DELETE') {
          signedIn = false;
          return json(route, 200, { success: true, data: { signedOut: true } });
        }
        return json(route, 404, refusal('NOT_FOUND'));
      });
      return sent;
    }

    it('sign-in with the second factor goes back to the page asked for; the navigation shows only what the permissions open', async () => {
      const { context, page } = await p.open();
      const sent = await contractApi(page, ['integrations'], { secondFactor: true });
      await page.goto(`${p.origin}/panel/integrations`);
      await page.waitForURL(/\/panel\/sign-in\?redirect=/);
      await page.getByLabel('E-mail').fill('ana@example.com');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong password!');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('The e-mail or the password is not right.').waitFor();
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('correct horse battery');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('textbox', { name: /^Code/ }).fill('123456');
      await checkPage(page, 'sign-in-code');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(`${p.origin}/panel/integrations`);
      await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
      expect(sent.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
        { email: 'ana@example.com', password: 'wrong password!' },
        { email: 'ana@example.com', password: 'correct horse battery' },
        { email: 'ana@example.com', password: 'correct horse battery', code: '123456' },
      ]);

      await page.setViewportSize({ width: 1280, height: 800 });
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      expect(await nav.getByRole('link').allTextContents()).toEqual(['Start', 'Integrations', 'Account']);
      await checkPage(page, 'integrations');

      await page.goto(`${p.origin}/panel/settings`);
      await page.getByRole('heading', { name: 'You do not have permission to see this' }).waitFor();
      await checkPage(page, 'forbidden');

      await page.goto(`${p.origin}/panel/nowhere/at/all`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await checkPage(page, 'not-found');
      await context.close();
    }, 240_000);

    it('on a phone the burger opens the navigation; sign-out sends the CSRF token and lands on sign-in', async () => {
      const { context, page } = await p.open();
      const sent = await contractApi(page, ['settings']);
      await page.goto(`${p.origin}/panel/sign-in`);
      await page.getByLabel('E-mail').fill('ana@example.com');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('correct horse battery');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Hello, Ana Lima' }).waitFor();
      await checkPage(page, 'home');
      const burger = page.getByRole('button', { name: 'Open or close the navigation' });
      await burger.click();
      await page.getByRole('link', { name: 'Members' }).click();
      await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();

      await page.getByRole('button', { name: 'Account of Ana Lima' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(sent.find((call) => call.method === 'DELETE')).toMatchObject({ path: '/session', csrf: 'csrf-token-of-this-session' });
      // the sign-in POST had no session yet, so no token
      expect(sent.find((call) => call.method === 'POST')?.csrf).toBeUndefined();
      await context.close();
    }, 240_000);
  });

  it('signs in through the real panel API, cookie and all', async () => {
    const { email, password } = await panelUser(p.t, { permissions: ['integrations'], name: 'Rita Real' });
    const { context, page } = await p.open();
    await signIn(page, p.origin, { email, password });
    expect((await context.cookies()).find((cookie) => cookie.name === 'quorum_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/panel' });
    await context.close();
  }, 240_000);
});
