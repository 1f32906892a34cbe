/**
 * The demo term-evaluation (English, with pt-BR and es translations) in Chromium: the language
 * switch shows, switching changes every text of the form and the page's lang, the choice is kept
 * across a section and a reload, with and without JavaScript; axe finds nothing at 320 and 1366 px.
 * Screenshots go to artifacts/screenshots/.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumRuns } from '../../../../test/chromium.js';
import type { TestApp } from '../../../../test/harness.js';
import { keyedForm } from '../../../../test/respondent.js';
import { createInvite, expectAxeClean, SCREENSHOTS, startRespondentBrowser, type RespondentBrowser } from '../../../../test/respondent-pages.js';

interface Texted {
  name: string;
  description?: string;
}
type DemoFile = Texted & {
  thankYou: string;
  sections: (Texted & { key: string; questions: (Texted & { key: string; options?: Texted[]; rows?: Texted[]; columns?: Texted[] })[] })[];
  translations: Record<string, { name: string; description: string; sections: Record<string, Texted>; questions: Record<string, { name: string; options?: Record<string, string> }> }>;
};
const demo = JSON.parse(readFileSync(new URL('../../../demo/data/term-evaluation.json', import.meta.url), 'utf8')) as DemoFile;

/** The English texts of a section that its translation writes differently: none may show once switched. */
function englishOnly(sectionKey: string, language: string): string[] {
  const section = demo.sections.find((s) => s.key === sectionKey)!;
  const translation = demo.translations[language];
  const texts = section.questions.flatMap((q) => [q.name, ...[...(q.options ?? []), ...(q.rows ?? []), ...(q.columns ?? [])].map((c) => c.name)]);
  const translated = new Set([...section.questions.flatMap((q) => [translation.questions[q.key].name, ...Object.values(translation.questions[q.key].options ?? {})])]);
  return [section.name, ...texts].filter((text) => !translated.has(text));
}

describe.skipIf(!chromiumRuns('the respondent language browser tests'))('the language switch of the respondent pages in Chromium', () => {
  let bed: RespondentBrowser;
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    bed = await startRespondentBrowser();
    ({ t, browser, origin } = bed);
  }, 60_000);
  afterAll(async () => bed?.close());

  const mainText = (page: Page) => page.locator('main').innerText();

  it.each([
    [320, true],
    [1366, true],
    [320, false],
  ])('at %i px (JavaScript %s): switch, every text and lang follow, kept across a section and a reload, axe clean', async (width, javaScriptEnabled) => {
    const f = await keyedForm(t, bed.tenant.company.id, { ...demo, slug: `languages-${width}-${javaScriptEnabled}` });
    const invite = await createInvite(t, bed.tenant.token, f.form.id);
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled, locale: 'en-US', hasTouch: width < 500, isMobile: width < 500 });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const look = async (name: string) => {
      await page.screenshot({ path: `${SCREENSHOTS}/languages-${width}-${javaScriptEnabled ? 'js' : 'nojs'}-${name}.png`, fullPage: true });
      await expectAxeClean(browser, page, `${name} at ${width}`, javaScriptEnabled);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width}`).toBeLessThanOrEqual(width);
    };
    const lang = () => page.evaluate(() => document.documentElement.lang);

    // the browser's English: the form's own texts, and a switch naming the two translations
    await page.goto(`${origin}/i/${invite.token}`);
    const languages = page.getByRole('navigation', { name: 'Language' });
    await expect.poll(() => languages.isVisible()).toBe(true);
    expect(await languages.getByRole('link').allInnerTexts()).toEqual(['Português', 'Español']);
    expect(await lang()).toBe('en');
    await look('1-welcome-en');

    await languages.getByRole('link', { name: 'Português' }).click();
    await page.getByRole('heading', { name: demo.translations['pt-BR'].name }).waitFor();
    expect(await lang()).toBe('pt-BR');
    expect(await mainText(page)).toContain(demo.translations['pt-BR'].description);
    expect(await mainText(page)).not.toContain(demo.description);
    await look('2-welcome-pt');
    await page.getByRole('button', { name: 'Começar' }).click();

    await page.getByRole('heading', { name: 'Sobre você' }).waitFor();
    for (const text of englishOnly('you', 'pt-BR')) expect(await mainText(page)).not.toContain(text);
    await page.getByLabel('Campus Norte').check();
    await page.getByLabel('Sim', { exact: true }).check();
    await look('3-about-you-pt');
    await page.getByRole('button', { name: 'Avançar' }).click();

    // the next section, then a reload: still Portuguese
    await page.getByRole('heading', { name: 'O curso' }).waitFor();
    expect(await lang()).toBe('pt-BR');
    for (const text of englishOnly('course', 'pt-BR')) expect(await mainText(page)).not.toContain(text);
    await page.reload();
    await page.getByRole('heading', { name: 'O curso' }).waitFor();
    expect(await page.getByRole('button', { name: 'Enviar respostas' }).or(page.getByRole('button', { name: 'Avançar' })).count()).toBe(1);
    await look('4-course-pt');

    // switching again on the section: Spanish, the draft's section kept
    await page.getByRole('navigation', { name: 'Idioma' }).getByRole('link', { name: 'Español' }).click();
    await page.getByRole('heading', { name: 'El curso' }).waitFor();
    expect(await lang()).toBe('es');
    for (const text of englishOnly('course', 'es')) expect(await mainText(page)).not.toContain(text);
    expect(await mainText(page)).toContain('¿Cómo valora el curso en general?');
    await look('5-course-es');
    await context.close();
  }, 120_000);
});
