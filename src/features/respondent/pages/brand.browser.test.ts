/**
 * The company's logo and colour on its respondent pages in Chromium: the header logo loads from
 * Quorum itself (no request leaves the service's origin), the buttons take the brand colour, and
 * axe finds nothing at 320, 390 and 1366 px, with and without JavaScript. Screenshots go to
 * artifacts/screenshots/.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumRuns } from '../../../../test/chromium.js';
import type { TestApp } from '../../../../test/harness.js';
import { PIXEL_PNG } from '../../../../test/images.js';
import { createInvite, createSteppedForm, SCREENSHOTS, expectAxeClean, startRespondentBrowser, type RespondentBrowser } from '../../../../test/respondent-pages.js';
import { updateCompanySettings } from '../../companies/company-settings.js';
import { setCompanyLogo } from '../../companies/index.js';


describe.skipIf(!chromiumRuns('the respondent brand browser tests'))('a company brand on the respondent pages in Chromium', () => {
  let bed: RespondentBrowser;
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let publicUrl: string;
  let personalUrl: string;

  beforeAll(async () => {
    bed = await startRespondentBrowser();
    ({ t, browser, origin } = bed);
    const { company, token } = bed.tenant;
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { brandColor: '#0f766e' } });
    await setCompanyLogo(t.ctx.db, t.ctx, { companyId: company.id, bytes: PIXEL_PNG });
    const { form } = await createSteppedForm(t, company.id, { slug: 'branded', settings: { isPublic: true } });
    publicUrl = `${origin}/f/${company.slug}/branded`;
    personalUrl = `${origin}/i/${(await createInvite(t, token, form.id)).token}`;
  }, 120_000);
  afterAll(async () => bed?.close());

  it.each([
    [320, true],
    [390, true],
    [1366, true],
    [320, false],
    [1366, false],
  ] as const)('at %i px (JavaScript: %s): the logo from Quorum, buttons in the brand colour, a section sent back still AA; axe clean', async (width, javaScriptEnabled) => {
    const context = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const audit = (name: string) => expectAxeClean(browser, page, name, javaScriptEnabled);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    for (const url of [publicUrl, personalUrl]) {
      await page.goto(url);
      await page.getByText('Step 1 of 3').waitFor();
      const logo = page.locator('header img');
      await expect.poll(() => logo.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(1);
      expect(await page.getByRole('button', { name: 'Next' }).evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(15, 118, 110)');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await audit(`${url} at ${width}`);
    }
    await page.screenshot({ path: `${SCREENSHOTS}/brand-${width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true });
    // a section sent back with its errors keeps the brand and stays AA (the error colours beside the accent)
    await page.getByRole('button', { name: 'Next' }).click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    await audit(`errors at ${width}`);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    await context.close();
  }, 120_000);
});
