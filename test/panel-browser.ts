/// <reference types="vite/client" />
/**
 * The panel's browser harness: the built web app (dist/panel, which `npm ci` builds through
 * `prepare`; else one Vite build into a temporary folder, once per test file) served by a real
 * test app, opened in Debian's Chromium; each checked page passes axe at a phone and a desktop
 * size and is photographed into test-artifacts/panel/<name>-<size>.png.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { freePort } from './free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { PANEL_DIST } from '../src/platform/app/panel/serve-web.js';
import { axeViolations, chromiumRuns, launchChromium } from './chromium.js';
import { startTestApp, type TestApp, type TestAppOptions } from './harness.js';

export { chromiumRuns } from './chromium.js';

export const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const ARTIFACTS = 'test-artifacts/panel';

let built: Promise<string> | null = null;

/** dist/panel when it is there; else a fresh build of web/panel into a temporary folder. */
export function panelBuild(): Promise<string> {
  built ??= (async () => {
    if (existsSync(join(PANEL_DIST, 'index.html'))) return PANEL_DIST;
    const outDir = mkdtempSync(join(tmpdir(), 'quorum-panel-'));
    const { build } = await import('vite');
    await build({ configFile: 'web/panel/vite.config.ts', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    return outDir;
  })();
  return built;
}

export interface PanelBrowser {
  t: TestApp;
  origin: string;
  browser: Browser;
  /** A fresh browser context (its own cookies and storage) at the phone size, its page, and the page's CSP complaints. */
  open(options?: { locale?: string }): Promise<{ context: BrowserContext; page: Page; cspErrors: string[] }>;
  close(): Promise<void>;
}


/**
 * Compiles every lazily loaded route file before the app starts: on a loaded machine compiling
 * them inside the app's start outlasts Fastify's plugin timeout (the builder's pages load many).
 */
async function compileRouteFiles(): Promise<void> {
  await Promise.all(Object.values(import.meta.glob(['../src/features/**/*routes.ts', '!**/*.test.ts'])).map((load) => load()));
}

/**
 * A describe block of browser tests on the builder's pages (skipped where Chromium is missing): the
 * route files compiled, the app and Chromium started once before its tests and closed after. `fn`
 * declares the tests; `bed()` is the started bed, to be read inside them (it starts in beforeAll).
 */
export function describePanelBrowser(name: string, fn: (bed: () => PanelBrowser) => void): void {
  describe.skipIf(!chromiumRuns(`the browser tests “${name}”`))(name, () => {
    let started: PanelBrowser | undefined;
    beforeAll(async () => {
      await compileRouteFiles();
      started = await startPanelBrowser();
    }, 240_000);
    afterAll(async () => started?.close());
    fn(() => {
      if (!started) throw new Error('the panel browser starts in beforeAll: read bed() inside a test');
      return started;
    });
  });
}

export async function startPanelBrowser(options: TestAppOptions = {}): Promise<PanelBrowser> {
  const panelDir = await panelBuild();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // The panel API refuses state-changing calls from any origin but PUBLIC_PANEL_URL's (CSRF).
  const t = await startTestApp({ ...options, panelDir, config: { publicPanelUrl: `${origin}/panel`, ...options.config } });
  await t.app.listen({ port, host: '127.0.0.1' });
  const browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    t,
    origin,
    browser,
    async open({ locale = 'en-US' } = {}) {
      const context = await browser.newContext({ viewport: SIZES[0], locale });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const cspErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
      });
      return { context, page, cspErrors };
    },
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/** Signs `user` in through the sign-in page and waits for the home page's greeting. */
export async function signIn(page: Page, origin: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${origin}/panel/sign-in`);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /^Hello, / }).waitFor();
}

/** axe finds nothing at both sizes; a screenshot of each. The page is left at the phone size. */
export async function checkPage(page: Page, name: string): Promise<void> {
  for (const size of [...SIZES].reverse()) {
    await page.setViewportSize(size);
    // The pointer rests in a corner: a hover left by the last click is not the page's state.
    await page.mouse.move(size.width - 1, size.height - 1);
    // The navbar slides away when the width crosses the phone breakpoint: photograph and audit the page at rest.
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
    await page.screenshot({ path: `${ARTIFACTS}/${name}-${size.width}x${size.height}.png`, fullPage: true });
    expect(await axeViolations(page), `${name} at ${size.width}x${size.height}`).toEqual([]);
    // Usable on a phone: wide tables scroll in their own region, the page never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${size.width}x${size.height}`).toBeLessThanOrEqual(size.width);
  }
}
