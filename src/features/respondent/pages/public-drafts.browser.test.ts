/**
 * Save and resume on a public link in Chromium, at 320, 390 and 1366 px, with and without
 * JavaScript: a person answers the first section, half of the next, saves for later, leaves (the
 * browser context closed), and opens the resume link in a new one: the answers are there, on the
 * section they left. axe clean on the saved page; screenshots in artifacts/screenshots/.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumRuns } from '../../../../test/chromium.js';
import type { TestApp } from '../../../../test/harness.js';
import { createSteppedForm, SCREENSHOTS, expectAxeClean, startRespondentBrowser, type RespondentBrowser } from '../../../../test/respondent-pages.js';


describe.skipIf(!chromiumRuns('the save-and-resume browser tests'))('save and resume on a public link in Chromium', () => {
  let bed: RespondentBrowser;
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let companyId: string;
  let companySlug: string;

  beforeAll(async () => {
    bed = await startRespondentBrowser({ config: { publicFormUrl: 'http://127.0.0.1:1/' } });
    ({ t, browser, origin } = bed);
    const tenant = bed.tenant;
    companyId = tenant.company.id;
    companySlug = tenant.company.slug;
  }, 120_000);
  afterAll(async () => bed?.close());

  it.each([
    [320, true],
    [390, true],
    [1366, true],
    [320, false],
    [1366, false],
  ] as const)('at %i px (JavaScript: %s): answers saved for later come back from the resume link in another browser', async (width, javaScriptEnabled) => {
    const slug = `resume-${width}-${javaScriptEnabled}`;
    await createSteppedForm(t, companyId, { slug, settings: { isPublic: true } });
    const options = { viewport: { width, height: 800 }, javaScriptEnabled, locale: 'en-US' };
    const first = await browser.newContext(options);
    const page = await first.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${origin}/f/${companySlug}/${slug}`);
    await page.getByLabel('North campus').check();
    await page.getByLabel('Yes', { exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2').waitFor();
    await page.getByLabel('Anything else?').fill('The library was great');
    // the mandatory rating left unanswered: saving checks nothing
    await page.getByRole('button', { name: 'Save and continue later' }).click();
    await page.getByText('Your answers are saved until').waitFor();
    const link = (await page.locator('.resume').textContent())!;
    expect(page.url()).toContain('&saved=1');
    expect(link).toMatch(/\?resume=[\w-]{43}$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${SCREENSHOTS}/resume-saved-${width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true });
    await expectAxeClean(browser, page, `saved at ${width}`, javaScriptEnabled);
    await first.close();

    const later = await browser.newContext(options);
    const again = await later.newPage();
    again.setDefaultTimeout(20_000);
    await again.goto(`${origin}${new URL(link).pathname}${new URL(link).search}`);
    await again.getByText('Step 2 of 2').waitFor();
    expect(await again.getByLabel('Anything else?').inputValue()).toBe('The library was great');
    await again.getByLabel('4 of 5 stars').check();
    await again.getByRole('button', { name: 'Send answers' }).click();
    await again.getByText('Thank you').first().waitFor();
    await later.close();
  }, 120_000);
});
