/**
 * The ranking dragged in Chromium: by mouse at desktop size and by a finger on a phone (touch
 * events through the DevTools protocol, as a touchscreen sends them), the order written into the
 * position selects the page posts; the keyboard's up and down buttons still there; the grip only
 * with the page script (without it, the plain selects). axe clean; screenshots kept.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumRuns } from '../../../../test/chromium.js';
import type { TestApp } from '../../../../test/harness.js';
import { createSteppedForm, expectAxeClean, SCREENSHOTS, startRespondentBrowser, type RespondentBrowser } from '../../../../test/respondent-pages.js';


describe.skipIf(!chromiumRuns('the ranking drag browser tests'))('ranking by drag and drop in Chromium', () => {
  let bed: RespondentBrowser;
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let companyId: string;
  let companySlug: string;

  beforeAll(async () => {
    bed = await startRespondentBrowser();
    ({ t, browser, origin } = bed);
    const tenant = bed.tenant;
    companyId = tenant.company.id;
    companySlug = tenant.company.slug;
  }, 120_000);
  afterAll(async () => bed?.close());

  /** The stepped form's ranking section, reached through its first section. */
  async function rankingSection(page: Page, slug: string) {
    await createSteppedForm(t, companyId, { slug, settings: { isPublic: true } });
    await page.goto(`${origin}/f/${companySlug}/${slug}`);
    await page.getByLabel('North campus').check();
    await page.getByLabel('Yes', { exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2').waitFor();
    // the pointer works in the viewport: the ranking in view, whole
    await page.locator('.ranks').evaluate((list) => list.scrollIntoView({ block: 'center' }));
  }

  const order = (page: Page) => page.locator('.ranks .rank label').allTextContents();
  const positions = (page: Page) => page.locator('.ranks select').evaluateAll((selects) => selects.map((s) => (s as HTMLSelectElement).value));
  const centre = async (locator: Locator) => {
    const box = (await locator.boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };

  it.each([1366, 390])('by mouse at %i px: the last row dragged to the top; the positions follow; axe clean', async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    await rankingSection(page, `drag-mouse-${width}`);
    expect(await order(page)).toEqual(['Position of Theory', 'Position of Labs', 'Position of Projects']);
    const from = await centre(page.locator('.rank').nth(2).locator('.grip'));
    const to = await centre(page.locator('.rank').nth(0));
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y - 10, { steps: 8 });
    await page.mouse.up();
    expect(await order(page)).toEqual(['Position of Projects', 'Position of Theory', 'Position of Labs']);
    // each select names its option's position: what the page posts
    const selects = await page.locator('.ranks select').evaluateAll((all) => all.map((s) => `${(s.nextElementSibling as HTMLElement).textContent}=${(s as HTMLSelectElement).value}`));
    expect(selects).toEqual(['Position of Projects=1', 'Position of Theory=2', 'Position of Labs=3']);
    // the keyboard's buttons still move it
    await page.getByRole('button', { name: /Move Projects down/ }).click();
    expect(await order(page)).toEqual(['Position of Theory', 'Position of Projects', 'Position of Labs']);
    await page.screenshot({ path: `${SCREENSHOTS}/ranking-drag-${width}.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);

  it('by a finger on a phone at 320 px: touch drag reorders without scrolling the page away', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 700 }, locale: 'en-US', hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await rankingSection(page, 'drag-touch');
    const cdp = await context.newCDPSession(page);
    const scrolled = await page.evaluate(() => window.scrollY);
    const from = await centre(page.locator('.rank').nth(0).locator('.grip'));
    const to = await centre(page.locator('.rank').nth(2));
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', point?: { x: number; y: number }) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: point ? [{ x: point.x, y: point.y }] : [] });
    await touch('touchStart', from);
    for (let i = 1; i <= 8; i += 1) await touch('touchMove', { x: from.x, y: from.y + ((to.y + 10 - from.y) * i) / 8 });
    await touch('touchEnd');
    await expect.poll(() => order(page)).toEqual(['Position of Labs', 'Position of Projects', 'Position of Theory']);
    expect(await positions(page)).toEqual(['1', '2', '3']);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled); // the grip takes the finger, the page stays
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.screenshot({ path: `${SCREENSHOTS}/ranking-drag-touch-320.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);

  it('at 320 px in Portuguese: labels wrap between words, never inside one (the demo term-evaluation: "Avaliação")', async () => {
    const options = [
      { key: 'pace', name: 'Ritmo' },
      { key: 'assessment', name: 'Avaliação' },
      { key: 'feedback', name: 'Retorno sobre os trabalhos' },
      { key: 'long', name: 'Interdisciplinaridade-e-transversalidade-curricular' },
    ];
    const ranking = { key: 'priorities', name: 'Ordene o que devemos melhorar primeiro', type: 'RANKING', options };
    await createSteppedForm(t, companyId, { slug: 'rank-pt', settings: { isPublic: true, language: 'pt-BR' }, sections: [{ key: 'only', name: 'Prioridades', questions: [ranking] }] });
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ viewport: { width: 320, height: 700 }, locale: 'pt-BR', javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${origin}/f/${companySlug}/rank-pt`);
      // each label's lines: a word split across two lines would put its halves on different lines
      const lines = await page.locator('.ranks .rank label').evaluateAll((labels) =>
        labels.map((label) => {
          const text = label.lastChild!;
          const range = document.createRange();
          const words = (text.textContent ?? '').split(' ');
          let at = 0;
          return words.map((word) => {
            range.setStart(text, at);
            range.setEnd(text, at + word.length);
            at += word.length + 1;
            return range.getClientRects().length;
          });
        }),
      );
      // every word of a line's width on one line; only the one longer than the row may break
      expect(lines.slice(0, 3).flat().every((rects) => rects === 1), JSON.stringify(lines)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await page.screenshot({ path: `${SCREENSHOTS}/ranking-pt-BR-320${javaScriptEnabled ? '' : '-nojs'}.png`, fullPage: true });
      await expectAxeClean(browser, page, 'ranking pt-BR 320', javaScriptEnabled);
      await context.close();
    }
  }, 120_000);

  it('without JavaScript: no grip, the plain position selects', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 700 }, locale: 'en-US', javaScriptEnabled: false });
    const page = await context.newPage();
    await rankingSection(page, 'drag-nojs');
    expect(await page.locator('.grip').first().isVisible()).toBe(false);
    expect(await page.locator('.ranks select').first().isVisible()).toBe(true);
    await context.close();
  }, 120_000);
});
