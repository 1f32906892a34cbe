/**
 * The respondent pages in a real browser: Debian's Chromium driven by playwright-core, checked
 * by axe-core (WCAG 2.1 A and AA rules) in every page state, with 360 px screenshots written to
 * artifacts/screenshots/ (kept by CI). Skips only where /usr/bin/chromium is absent outside CI.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumRuns } from '../../../../test/chromium.js';
import type { TestApp } from '../../../../test/harness.js';
import { keyedForm } from '../../../../test/respondent.js';
import { createInvite, createSteppedForm, openState, walkedAnswers, SCREENSHOTS, startRespondentBrowser, type RespondentBrowser } from '../../../../test/respondent-pages.js';


describe.skipIf(!chromiumRuns('the respondent browser tests'))('respondent pages in Chromium', () => {
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

  async function phone(javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page; requests: string[] }> {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled, locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    return { context, page, requests };
  }

  /** axe-core finds nothing at WCAG 2.1 A/AA; the page is photographed at 360 px. */
  async function check(page: Page, name: string, javaScriptEnabled = true) {
    await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
    // axe runs in the page: a page without JavaScript is checked as a copy of its markup in a scripted one
    const { context, page: audited } = javaScriptEnabled ? { context: null, page } : await phone();
    if (!javaScriptEnabled) await audited.setContent(await page.content());
    expect(await axeViolations(audited), name).toEqual([]);
    await context?.close();
  }

  async function newInvite(slug: string) {
    const stepped = await createSteppedForm(t, companyId, { slug });
    const invite = await createInvite(t, apiToken, stepped.form.id);
    return { ...stepped, invite, url: `${origin}/i/${invite.token}` };
  }

  async function storedAnswers(formId: string) {
    const { rows } = await t.ctx.db.execute<{ answers: Record<string, unknown> }>(sql`SELECT answers FROM responses WHERE form_id = ${formId}`);
    return rows.map((row) => row.answers);
  }

  it('with JavaScript: instant conditions, inline errors with focus, autosaved draft found after a reload, submit, thank-you', async () => {
    const { form, q, option, url } = await newInvite('with-js');
    const { context, page, requests } = await phone();
    await page.goto(url);
    await check(page, 'js-1-first-section');
    const missed = page.locator(`#q-${q('missed')}`);
    await expect.poll(() => missed.isHidden()).toBe(true);

    await page.getByLabel('Online', { exact: true }).check();
    await page.getByLabel('No', { exact: true }).check();
    await expect.poll(() => missed.isVisible()).toBe(true); // no round trip
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForSelector(`#e-${q('missed')}:not([hidden])`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`f-${q('missed')}`);
    expect(await page.getAttribute(`#f-${q('missed')}`, 'aria-describedby')).toContain(`e-${q('missed')}`);
    await check(page, 'js-2-inline-error');

    // The autosave that carries this answer (an earlier save may already show "Draft saved.").
    const saved = page.waitForResponse(
      (res) => res.url().endsWith('/draft') && res.request().method() === 'PUT' && String(res.request().postDataJSON()?.answers?.[q('missed')]) === '3',
      { timeout: 10_000 },
    );
    await page.getByLabel('How many classes did you miss?').fill('3');
    expect((await saved).status()).toBe(200);
    await expect.poll(() => page.textContent('#save-status'), { timeout: 10_000 }).toBe('Draft saved.');
    await page.reload();
    expect(await page.inputValue(`#f-${q('missed')}`)).toBe('3'); // the draft came back
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(url);
    await page.getByLabel('Which platform did you use?').fill('Moodle');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 3 of 3').waitFor();
    await check(page, 'js-3-last-section');

    await page.getByLabel('4 of 5 stars').check();
    await page.getByLabel('Position of Labs').selectOption('1');
    await page.getByLabel('Position of Projects').selectOption('2');
    await page.getByLabel('Position of Theory').selectOption('3');
    await page.getByRole('radio', { name: 'Clarity Good' }).check();
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    await check(page, 'js-4-thank-you');

    expect(await storedAnswers(form.id)).toEqual([walkedAnswers({ q, option })]);
    expect(requests.every((request) => request.startsWith(origin))).toBe(true); // zero external requests
    await context.close();
  }, 120_000);

  it('without JavaScript: each section is a POST, the revealed question comes on the next step, the draft survives a reload', async () => {
    const { form, q, url } = await newInvite('no-js');
    const { context, page } = await phone(false);
    await page.goto(url);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('alert').waitFor();
    await check(page, 'nojs-1-errors', false);

    await page.getByLabel('North campus').check();
    await page.getByLabel('No', { exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('How many classes did you miss?').fill('2');
    await page.reload(); // a GET after the PRG: the draft holds the first answers
    expect(await page.isChecked('text=North campus')).toBe(true);
    await page.getByLabel('How many classes did you miss?').fill('2');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2').waitFor();
    await check(page, 'nojs-2-last-section', false);
    await page.getByLabel('5 of 5 stars').check();
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect((await storedAnswers(form.id))[0]).toMatchObject({ [q('missed')]: 2, [q('overall')]: 5, [q('attended')]: false });
    await page.goto(url);
    await page.getByRole('heading', { name: 'Already answered' }).waitFor();
    await check(page, 'nojs-3-already-answered', false);
    await context.close();
  }, 120_000);

  it.each(['personal', 'public'] as const)('Post/Redirect/Get on a %s link without JavaScript: Back, Forward and reload at each step send nothing again; a ranking sent back keeps its positions', async (link) => {
    const stepped = await newInvite(`prg-${link}`);
    const { rows } = await t.ctx.db.execute<{ slug: string }>(sql`SELECT slug FROM companies WHERE id = ${companyId}`);
    const url = link === 'personal' ? stepped.url : `${origin}/f/${rows[0].slug}/prg-${link}`;
    const { q } = stepped;
    const { context, page } = await phone(false);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    /** Reload, Back and Forward: each a GET of a GET URL, no POST again, no prompt, the page as it was. */
    async function roundTrip(name: string, expectShown: () => Promise<void>) {
      const sent = posts.length;
      for (const move of [() => page.reload(), () => page.goBack(), () => page.goForward()]) {
        const res = await move();
        if (res) expect(res.request().method(), name).toBe('GET');
        await expectShown();
      }
      expect(posts.length, name).toBe(sent);
      expect(dialogs, name).toEqual([]);
    }

    await page.goto(url);
    await page.getByLabel('North campus').check();
    await page.getByLabel('Yes', { exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2').waitFor();
    expect(page.url()).toBe(url); // the POST's answer is a redirect to the GET URL
    await roundTrip('second step', async () => {
      await page.getByText('Step 2 of 2').waitFor();
    });

    // the server sends the section back: the rating is missing and two options share a position
    await page.getByLabel('Position of Labs').selectOption('1');
    await page.getByLabel('Position of Projects').selectOption('1');
    await page.getByLabel('Position of Theory').selectOption('2');
    await page.getByLabel('Anything else?').fill('Kept as typed');
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByRole('alert').waitFor();
    expect(page.url()).toBe(url);
    const kept = async () => {
      await page.getByRole('alert').waitFor();
      expect(await page.inputValue(`select[name="q.${q('topics')}.${stepped.option('topics', 'labs')}"]`)).toBe('1');
      expect(await page.inputValue(`select[name="q.${q('topics')}.${stepped.option('topics', 'projects')}"]`)).toBe('1');
      expect(await page.inputValue(`select[name="q.${q('topics')}.${stepped.option('topics', 'theory')}"]`)).toBe('2');
      expect(await page.inputValue(`#f-${q('comment')}`)).toBe('Kept as typed');
    };
    await kept();
    await check(page, `prg-${link}-sent-back`, false);
    await roundTrip('section sent back', kept);

    await page.getByLabel('4 of 5 stars').check();
    await page.getByLabel('Position of Projects').selectOption('3');
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect(page.url()).toBe(`${url}/thanks`);
    const sent = posts.length;
    expect((await page.reload())?.request().method()).toBe('GET');
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: link === 'personal' ? 'Already answered' : 'Term feedback' }).waitFor();
    await page.goForward();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect(posts.length).toBe(sent);
    expect(dialogs).toEqual([]);
    expect(await storedAnswers(stepped.form.id)).toHaveLength(1);
    await context.close();
  }, 120_000);

  it.each([320, 390, 1366])('the welcome screen, the progress bar and the icon at %i px (axe, no horizontal scroll, the icon loaded from the service)', async (width) => {
    const slug = `welcome-${width}`;
    await createSteppedForm(t, companyId, { slug, description: 'Tell us how the term went.\nIt takes three minutes and stays anonymous.' });
    const { rows } = await t.ctx.db.execute<{ slug: string }>(sql`SELECT slug FROM companies WHERE id = ${companyId}`);
    const context = await browser.newContext({ viewport: { width, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${origin}/f/${rows[0].slug}/${slug}?name=Rui`);
    await page.getByText('It takes three minutes').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/welcome-${width}.png`, fullPage: true });
    expect(await axeViolations(page), `welcome ${width}`).toEqual([]);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByText('Step 1 of 3').waitFor();
    expect(new URL(page.url()).searchParams.get('name')).toBe('Rui');
    expect(await page.getAttribute('progress', 'value')).toBe('0');
    await page.getByLabel('North campus').check();
    await page.getByLabel('Yes', { exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2').waitFor();
    expect(await page.getAttribute('progress', 'value')).toBe('50');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${SCREENSHOTS}/progress-${width}.png` });
    expect(await axeViolations(page), `progress ${width}`).toEqual([]);
    expect(requests.some((url) => url.includes('/r/assets/icon.'))).toBe(true);
    expect(requests.every((url) => url.startsWith(origin))).toBe(true);
    await context.close();
  }, 120_000);

  const WIDGETS = {
    name: 'Widgets',
    settings: { language: 'en' },
    sections: [
      {
        key: 's',
        name: 'How was it?',
        questions: [
          { key: 'stars', name: 'Overall rating', type: 'STAR', max: 5, mandatory: true },
          { key: 'nps', name: 'Would you recommend the course?', type: 'NPS', mandatory: true },
          { key: 'agree', name: 'The pace was right', type: 'RANGE', min: 1, max: 7 },
          { key: 'count', name: 'How many books did you read?', type: 'NUMBER', min: 0, step: 1 },
          { key: 'when', name: 'When was your last class?', type: 'DATETIME' },
          { key: 'order', name: 'Rank the topics', type: 'RANKING', options: [{ key: 'a', name: 'Alpha' }, { key: 'b', name: 'Beta' }, { key: 'c', name: 'Gamma' }] },
        ],
      },
    ],
  };

  it.each([
    [320, true],
    [390, true],
    [1366, true],
    [320, false],
  ] as const)('widgets at %i px (JavaScript: %s): stars by touch and keys, the 0-10 scale in one row, a segmented scale, a São Paulo date-time stored in UTC, ranking moved by buttons; axe clean', async (width, javaScriptEnabled) => {
    const f = await keyedForm(t, companyId, { ...WIDGETS, slug: `widgets-${width}-${javaScriptEnabled}` });
    const invite = await createInvite(t, apiToken, f.form.id);
    const phoneSized = width < 500;
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled, locale: 'en-US', timezoneId: 'America/Sao_Paulo', hasTouch: phoneSized, isMobile: phoneSized });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto(`${origin}/i/${invite.token}`);
    const within = (key: string) => page.locator(`#q-${f.q[key]}`);

    // stars: a tap on the fourth, then the arrow key moves to the fifth
    const fourth = within('stars').locator('.opt').nth(3);
    if (phoneSized) await fourth.tap();
    else await fourth.click();
    expect(await page.isChecked(`#f-${f.q.stars}-3`)).toBe(true);
    await page.focus(`#f-${f.q.stars}-3`);
    await page.keyboard.press('ArrowRight');
    expect(await page.isChecked(`#f-${f.q.stars}-4`)).toBe(true);
    await page.keyboard.press('ArrowLeft');

    // the 0-10 scale: one row inside the page, each point at least 24 px wide
    const boxes = await within('nps').locator('.opt').evaluateAll((labels) => labels.map((l) => l.getBoundingClientRect().toJSON() as DOMRect));
    expect(boxes).toHaveLength(11);
    expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(1);
    expect(Math.max(...boxes.map((b) => b.right))).toBeLessThanOrEqual(width);
    expect(Math.min(...boxes.map((b) => b.width))).toBeGreaterThanOrEqual(24);
    await within('nps').locator('.opt').nth(9).click();
    await within('agree').locator('.opt').nth(5).click();
    expect(await page.getAttribute(`#f-${f.q.count}`, 'inputmode')).toBe('numeric');

    await page.fill(`#f-${f.q.when}`, '2026-03-01T12:30');
    if (javaScriptEnabled) {
      expect(await page.textContent(`#n-${f.q.when}`)).toBe('Time in your time zone (America/Sao_Paulo).');
      await page.getByRole('button', { name: 'Move Gamma up' }).click();
      await page.keyboard.press('Enter'); // the focus stays on the moved row's button: up again
      const order = await within('order').locator('select').evaluateAll((selects) => selects.map((s) => `${(s as HTMLSelectElement).id}=${(s as HTMLSelectElement).value}`));
      expect(order).toEqual([`f-${f.q.order}-${f.option('order', 'c')}=1`, `f-${f.q.order}-${f.option('order', 'a')}=2`, `f-${f.q.order}-${f.option('order', 'b')}=3`]);
    } else {
      expect(await page.isHidden('.moves')).toBe(true);
      await page.getByLabel('Position of Gamma').selectOption('1');
      await page.getByLabel('Position of Alpha').selectOption('2');
      await page.getByLabel('Position of Beta').selectOption('3');
    }
    await page.screenshot({ path: `${SCREENSHOTS}/widgets-${width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true });
    if (javaScriptEnabled) expect(await axeViolations(page), `widgets ${width}`).toEqual([]);
    else await check(page, `widgets-${width}-nojs-axe`, false);
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect(await storedAnswers(f.form.id)).toEqual([
      {
        [f.q.stars]: 4,
        [f.q.nps]: 9,
        [f.q.agree]: 6,
        // with script the person typed São Paulo time (UTC-3); without, the page said UTC
        [f.q.when]: javaScriptEnabled ? '2026-03-01T15:30:00.000Z' : '2026-03-01T12:30:00.000Z',
        [f.q.order]: [f.option('order', 'c'), f.option('order', 'a'), f.option('order', 'b')],
      },
    ]);
    await context.close();
  }, 120_000);

  it.each([320, 390, 1366])('the demo term-evaluation at %i px: welcome, every section, the thank-you text; axe clean and the bar only moving forward', async (width) => {
    const demo = JSON.parse(readFileSync(new URL('../../../demo/data/term-evaluation.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const f = await keyedForm(t, companyId, { ...demo, slug: `demo-term-${width}` });
    const invite = await createInvite(t, apiToken, f.form.id);
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US', hasTouch: width < 500, isMobile: width < 500 });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const bar: number[] = [];
    const look = async (name: string) => {
      if (await page.locator('progress').count()) bar.push(Number(await page.getAttribute('progress', 'value')));
      await page.screenshot({ path: `${SCREENSHOTS}/demo-${width}-${name}.png`, fullPage: true });
      expect(await axeViolations(page), `${name} at ${width}`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width}`).toBeLessThanOrEqual(width);
    };
    await page.goto(`${origin}/i/${invite.token}`);
    await page.getByText('Sent to every student at the end of term.').waitFor();
    await look('1-welcome');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByLabel('Online').check();
    await page.getByLabel('Yes', { exact: true }).check();
    await look('2-about-you');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('How would you rate the course overall?').waitFor();
    await page.locator(`#q-${f.q.rating} .opt`).nth(4).click();
    await page.locator(`#q-${f.q.recommend} .opt`).nth(10).click();
    for (const row of ['Clear explanations', 'Availability', 'Fair grading']) await page.getByRole('radio', { name: `${row} Good` }).check();
    await look('3-course');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Did connection problems keep you from following classes?').waitFor();
    await look('4-online');
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByText('Your teachers read every answer').waitFor();
    await look('5-thanks');
    expect(bar).toEqual([...bar].sort((a, b) => a - b));
    expect(bar).toHaveLength(3);
    await context.close();
  }, 120_000);

  it('keyboard only: radios by arrows, Enter submits, focus lands on the first error', async () => {
    const { form, q, url } = await newInvite('keyboard');
    const { context, page } = await phone();
    await page.goto(url);
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 60; i++) {
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`never reached ${selector} by Tab`);
    };
    await tabTo(`input[name="q.${q('campus')}"]`);
    await page.keyboard.press('Space');
    await tabTo(`input[name="q.${q('attended')}"]`);
    await page.keyboard.press('Space'); // Yes
    await tabTo('button[value="next"]');
    await page.keyboard.press('Enter');
    await page.getByText('Step 2 of 2').waitFor();
    await tabTo('button[value="next"]');
    await page.keyboard.press('Enter'); // the mandatory star rating is empty
    await page.waitForSelector(`#e-${q('overall')}:not([hidden])`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`f-${q('overall')}`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight'); // 2 stars
    await tabTo(`select[name^="q.${q('topics')}."]`);
    await tabTo('button[value="next"]');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect((await storedAnswers(form.id))[0]).toMatchObject({ [q('overall')]: 2, [q('attended')]: true });
    await context.close();
  }, 120_000);

  it('status pages and the public link pass axe at 360 px', async () => {
    const { invite, url } = await newInvite('statuses');
    const { context, page } = await phone();
    expect((await page.goto(`${origin}/i/${'A'.repeat(43)}`))?.status()).toBe(404);
    await check(page, 'status-404');
    expect((await t.post(apiToken, `/v1/invites/${invite.id}/revoke`)).statusCode).toBe(200);
    expect((await page.goto(url))?.status()).toBe(410);
    await check(page, 'status-410-revoked');
    const { rows } = await t.ctx.db.execute<{ slug: string }>(sql`SELECT slug FROM companies WHERE id = ${companyId}`);
    expect((await page.goto(`${origin}/f/${rows[0].slug}/statuses?name=Rui&dim.cohort=2026`))?.status()).toBe(200);
    await check(page, 'public-first-section');
    await context.close();
  }, 120_000);

  it('on a phone, "Draft saved." is in view and a step sent offline says so instead of an error page', async () => {
    const { q, url } = await newInvite('offline');
    const { context, page } = await phone();
    await page.goto(url);
    await page.getByLabel('North campus').check();
    await page.getByLabel('No', { exact: true }).check();
    await page.getByLabel('How many classes did you miss?').fill('4');
    await expect.poll(() => page.textContent('#save-status'), { timeout: 10_000 }).toBe('Draft saved.');
    const box = (await page.locator('#save-status').boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(740); // not below the fold of a 740 px phone
    await page.locator('#save-status').scrollIntoViewIfNeeded();
    await check(page, 'js-draft-saved');

    await context.setOffline(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.textContent('#save-status')).toContain('You are offline');
    expect(page.url()).toBe(url);
    expect(await page.inputValue(`#f-${q('missed')}`)).toBe('4');
    await check(page, 'js-offline');
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2').waitFor();
    await context.close();
  }, 120_000);

  it('a headless browser that loads the page, runs its script, fakes events and leaves does not open the invite', async () => {
    const { form, invite, url } = await newInvite('scanner');
    const { context, page, requests } = await phone();
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    // what a scanner's own script can do: events it makes up are not a person's
    await page.evaluate(() => {
      window.dispatchEvent(new Event('scroll'));
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
      document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    });
    await page.waitForTimeout(500);
    await context.close();
    expect(requests.some((request) => request.endsWith('/seen'))).toBe(false);
    expect(await openState(t, apiToken, form.id, invite.id)).toEqual({ status: 'created', opens: 0 });
  }, 120_000);

  it('a person on a phone with JavaScript opens the invite once: a tap, then a scroll and a key', async () => {
    const { form, invite, url } = await newInvite('person-js');
    const context = await browser.newContext({ viewport: { width: 390, height: 740 }, hasTouch: true, isMobile: true, locale: 'en-US' });
    const page = await context.newPage();
    const seen: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/seen')) seen.push(response.status());
    });
    await page.goto(url);
    const reported = page.waitForResponse((response) => response.url().endsWith('/seen'));
    await page.locator('h1').tap();
    expect((await reported).status()).toBe(204);
    await page.mouse.wheel(0, 300);
    await page.keyboard.press('Tab');
    await page.waitForTimeout(300);
    expect(seen).toEqual([204]);
    expect(await openState(t, apiToken, form.id, invite.id)).toEqual({ status: 'opened', opens: 1 });
    await page.reload(); // once opened, the page no longer reports
    await page.locator('h1').tap();
    await page.waitForTimeout(300);
    expect(seen).toEqual([204]);
    await context.close();
    expect(await openState(t, apiToken, form.id, invite.id)).toEqual({ status: 'opened', opens: 1 });
  }, 120_000);

  it('a person on a phone without JavaScript opens the invite once, by sending a section', async () => {
    const { form, invite, url } = await newInvite('person-nojs');
    const { context, page } = await phone(false);
    await page.goto(url);
    await page.reload();
    expect(await openState(t, apiToken, form.id, invite.id)).toEqual({ status: 'created', opens: 0 });
    await page.getByLabel('North campus').check();
    await page.getByLabel('Yes', { exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2').waitFor();
    await page.getByRole('button', { name: 'Send answers' }).click(); // refused: the rating is mandatory
    await page.getByRole('alert').waitFor();
    await context.close();
    // the first section's answers are a draft: started, after one invite.opened
    expect(await openState(t, apiToken, form.id, invite.id)).toEqual({ status: 'started', opens: 1 });
  }, 120_000);

  it.each([true, false])('a double tap on "Send answers" of a public link stores one response (JavaScript: %s)', async (javaScriptEnabled) => {
    const slug = `double-tap-${javaScriptEnabled ? 'js' : 'nojs'}`;
    const f = await keyedForm(t, companyId, {
      slug,
      name: 'One question',
      settings: { isPublic: true, language: 'en' },
      sections: [{ key: 's', name: 'Rating', questions: [{ key: 'overall', name: 'Overall rating', type: 'STAR', max: 5, mandatory: true }] }],
    });
    const { rows } = await t.ctx.db.execute<{ slug: string }>(sql`SELECT slug FROM companies WHERE id = ${companyId}`);
    const { context, page } = await phone(javaScriptEnabled);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await page.goto(`${origin}/f/${rows[0].slug}/${slug}`);
    await page.getByLabel('3 of 5 stars').check();
    await page.getByRole('button', { name: 'Send answers' }).dblclick();
    await page.getByRole('heading', { name: /Thank you|Already received/ }).waitFor();
    // with the script the second tap posts nothing; without it the second post may reach the server, which stores one
    if (javaScriptEnabled) expect(posts).toHaveLength(1);
    else expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(await storedAnswers(f.form.id)).toEqual([{ [f.q.overall]: 3 }]);
    await context.close();
  }, 120_000);
});
