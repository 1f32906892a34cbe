/**
 * Piping in Chromium, with and without JavaScript: a pt-BR personal link whose second section
 * names the invite's course, the respondent (a name with a script tag, shown as text, never run)
 * and the first section's answers; axe clean at phone and desktop sizes.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumRuns } from '../../../../test/chromium.js';
import type { TestApp } from '../../../../test/harness.js';
import { pipedForm } from '../../../../test/piped-form.js';
import { createInvite, expectAxeClean, startRespondentBrowser, type RespondentBrowser } from '../../../../test/respondent-pages.js';
import { importEntityFile } from '../../entities/index.js';
import { importForm } from '../../forms/import-form.js';

describe.skipIf(!chromiumRuns('the piping browser tests'))('piping in Chromium', () => {
  let bed: RespondentBrowser;
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let apiToken: string;
  let companyId: string;

  beforeAll(async () => {
    bed = await startRespondentBrowser();
    ({ t, browser, origin } = bed);
    const tenant = bed.tenant;
    apiToken = tenant.token;
    companyId = tenant.company.id;
    await importEntityFile(t.ctx.db, t.ctx, { companyId, text: 'kind,code,name\ncourse,HIST101,História Antiga\n', format: 'csv' });
  }, 120_000);
  afterAll(async () => bed?.close());

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
    await expectAxeClean(browser, page, `piped ${width} ${javaScriptEnabled}`, javaScriptEnabled);
    await context.close();
  });
});
