/**
 * /docs in a real browser: Quorum's name on it, the sections in the contract's order, and axe-core
 * (WCAG 2.1 A and AA) finding nothing at phone and desktop widths, with an operation opened.
 * Screenshots go to artifacts/screenshots/. Skips only where /usr/bin/chromium is absent outside CI.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = 'artifacts/screenshots';
const available = existsSync(CHROMIUM);

describe.skipIf(!available && !process.env.CI)('/docs in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const [size, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    it(`is Quorum's reference, in the contract's order, with no axe violation (${size})`, async () => {
      const context = await browser.newContext({ viewport });
      context.setDefaultTimeout(60_000);
      const page = await context.newPage();
      await page.goto(`${origin}/docs`);
      await page.locator('#operations-Account-getMe').waitFor();
      expect(await page.title()).toBe('Quorum API reference');
      expect(await page.locator('.topbar img').getAttribute('alt')).toBe('Quorum API reference');
      const sections = await page.locator('.opblock-tag > a span, .opblock-tag > a').evaluateAll((links) =>
        [...new Set(links.map((link) => link.closest('.opblock-tag')?.getAttribute('data-tag')))],
      );
      expect(sections).toEqual(['Account', 'Forms', 'Responses', 'Invites', 'Rosters', 'Statistics', 'Treatments', 'Events', 'Respondent']);
      // An opened operation shows its parameters, responses and the "try it out" controls too.
      await page.locator('#operations-Account-getMe .opblock-summary-control').click();
      await page.locator('#operations-Account-getMe .responses-wrapper').waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}/docs-${size}.png`, fullPage: false });
      const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await context.close();
    }, 240_000);
  }
});
