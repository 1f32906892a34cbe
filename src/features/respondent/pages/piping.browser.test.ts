/**
 * Piping in Chromium, with and without JavaScript: a pt-BR personal link whose second section
 * names the invite's course, the respondent (a name with a script tag, shown as text, never run)
 * and the first section's answers; axe clean at phone and desktop sizes.
 */
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumRuns, launchChromium } from '../../../../test/chromium.js';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { pipedForm } from '../../../../test/piped-form.js';
import { createInvite } from '../../../../test/respondent-pages.js';
import { importEntityFile } from '../../entities/index.js';
import { importForm } from '../../forms/import-form.js';

describe.skipIf(!chromiumRuns('the piping browser tests'))('piping in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let apiToken: string;
  let companyId: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    const tenant = await t.tenant();
    apiToken = tenant.token;
    companyId = tenant.company.id;
    await importEntityFile(t.ctx.db, t.ctx, { companyId, text: 'kind,code,name\ncourse,HIST101,História Antiga\n', format: 'csv' });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** axe in a scripted page: a page without JavaScript is audited as a copy of its markup. */
  async function axeClean(page: Page, name: string, javaScriptEnabled: boolean) {
    if (javaScriptEnabled) return expect(await axeViolations(page), name).toEqual([]);
    const copy = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
    const audited = await copy.newPage();
    await audited.setContent(await page.content());
    expect(await axeViolations(audited), name).toEqual([]);
    await copy.close();
  }

  it.each([
    [360, true],
    [360, false],
    [1366, true],
    [1366, false],
  ] as const)('at %i px (JavaScript: %s): the second section shows the course, the name as text and the first answers in pt-BR', async (width, javaScriptEnabled) => {
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId, rawJson: pipedForm(`piped-${width}-${javaScriptEnabled}`) });
    const invite = await createInvite(t, apiToken, id, { name: 'Ana <script>window.piped = 1</script>', email: 'ana@school.test', dims: { course: 'HIST101' } });
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled, locale: 'pt-BR' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto(`${origin}/i/${invite.token}`);
    await page.getByLabel('Online', { exact: true }).check();
    await page.getByLabel('Sim', { exact: true }).check();
    await page.getByLabel('Horas').fill('12.5');
    await page.getByRole('button', { name: 'Avançar' }).click();

    await page.getByRole('heading', { name: 'Sobre História Antiga' }).waitFor();
    await page.getByText('Olá, Ana <script>window.piped = 1</script>!').waitFor();
    await page.getByLabel('Por que Online? Frequentou: Sim, 12,5 horas.').waitFor();
    if (javaScriptEnabled) expect(await page.evaluate(() => (window as { piped?: number }).piped)).toBeUndefined();
    await axeClean(page, `piped ${width} ${javaScriptEnabled}`, javaScriptEnabled);
    await context.close();
  });
});
