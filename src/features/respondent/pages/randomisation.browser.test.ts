/**
 * Randomisation in Chromium, with and without JavaScript: the respondent sees the invite's own
 * order (anchored options last), the same after a reload and after the first section is posted
 * and the person comes back to it, and the order seen is the one stored with the response; axe clean at
 * phone and desktop sizes.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumRuns } from '../../../../test/chromium.js';
import type { TestApp } from '../../../../test/harness.js';
import { createInvite, idsByKey, expectAxeClean, startRespondentBrowser, type RespondentBrowser } from '../../../../test/respondent-pages.js';
import { shuffledForm } from '../../../../test/shuffled-form.js';
import { findForm } from '../../forms/find-form.js';
import { importForm } from '../../forms/import-form.js';

describe.skipIf(!chromiumRuns('the randomisation browser tests'))('randomisation in Chromium', () => {
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
  }, 120_000);
  afterAll(async () => bed?.close());

  /** What the person sees: the questions' ids top to bottom, and each choice list's option ids. */
  const shownOrder = async (page: Page, pick: string, many: string) => {
    const values = (selector: string) => page.locator(selector).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    return {
      questions: await page.locator('[data-q]').evaluateAll((questions) => questions.map((question) => question.getAttribute('data-q'))),
      pick: await values(`#q-${pick} input`),
      many: await values(`#q-${many} input`),
    };
  };

  it.each([
    [360, true],
    [360, false],
    [1366, true],
    [1366, false],
  ] as const)('at %i px (JavaScript: %s): the invite sees its own order, the same after a reload and a step back, and it is stored', async (width, javaScriptEnabled) => {
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId, rawJson: shuffledForm(`shuffled-${width}-${javaScriptEnabled}`) });
    const form = (await findForm(t.ctx.db, t.ctx, { companyId, id }))!;
    const { q, option } = idsByKey(form);
    const invite = await createInvite(t, apiToken, form.id);
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled, locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto(`${origin}/i/${invite.token}`);

    const first = await shownOrder(page, q('pick'), q('many'));
    expect([...first.questions].sort()).toEqual(form.content.sections[0].questions.map((x) => x.id).sort());
    expect(first.pick.at(-1)).toBe(option('pick', 'other'));
    expect(first.many.at(-1)).toBe(option('many', 'none'));
    await expectAxeClean(browser, page, `shuffled ${width} ${javaScriptEnabled}`, javaScriptEnabled);

    await page.reload();
    expect(await shownOrder(page, q('pick'), q('many'))).toEqual(first);

    await page.getByLabel('Other', { exact: true }).check();
    await page.getByLabel('None of the above', { exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Anything else').waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByText('Pick one').waitFor();
    expect(await shownOrder(page, q('pick'), q('many'))).toEqual(first);
    expect(await page.isChecked(`#q-${q('pick')} input[value="${option('pick', 'other')}"]`)).toBe(true);

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Option y', { exact: true }).check();
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    await context.close();

    const list = await t.get(apiToken, `/v1/forms/${form.id}/responses`);
    const record = (await t.get(apiToken, `/v1/responses/${list.json().data[0].id}`)).json().data;
    expect(record.answers[q('pick')]).toBe(option('pick', 'other'));
    expect(record.answers[q('many')]).toEqual([option('many', 'none')]);
    const stored = record.presentedOrder[form.content.sections[0].id];
    expect({ questions: stored.questions, pick: stored.options[q('pick')], many: stored.options[q('many')] }).toEqual(first);
  });
});
