/**
 * The Responses and Statistics areas in Chromium against the real server and the demo company:
 * filter the demo's responses and compare the table with /v1's scan; export the cut as CSV and
 * XLSX and compare each file with the scan row for row (with the order each respondent saw, for a form
 * that shuffles, also shown on its response page); open a response and delete it (the
 * statistics follow); read the dashboard of the anonymous demo form and prove that nothing the
 * page shows lets anyone work out a suppressed group. axe at both sizes on every state.
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../src/demo/seed-demo.js';
import { findForm } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';
import { panelUser } from './panel.js';
import { shuffledForm } from './shuffled-form.js';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser, signIn as signInPage } from './panel-browser.js';

type Choice = { id: string; name: string };
type Question = { id: string; name: string; type: string; options: Choice[]; rows?: Choice[]; columns?: Choice[] };
type Section = { id: string; shuffleQuestions?: boolean; shuffleOptions?: boolean; questions: Question[] };
type PresentedOrder = Record<string, { questions?: string[]; options?: Record<string, string[]> }> | null;
type Item = { id: string; createdAt: string; completedAt: string | null; respondent: Record<string, string | null> | null; dims: Record<string, string>; answers: Record<string, unknown> };

describe.skipIf(!chromiumRuns('the Responses browser tests'))('Responses and Statistics in the panel', () => {
  let bed: PanelBrowser;
  let token: string;
  let companyId: string;

  beforeAll(async () => {
    bed = await startPanelBrowser();
    const demo = await ensureDemo(bed.t.ctx);
    if (!demo.created) throw new Error('the demo already existed');
    token = demo.token;
    companyId = demo.company.id;
    // the panel's build and the demo's seeding, on a shared machine
  }, 600_000);
  afterAll(async () => bed?.close());

  const v1 = async (path: string) => {
    const res = await bed.t.get(token, `/v1${path}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const formBySlug = async (slug: string) => (await v1('/forms?limit=100')).data.find((f: { slug: string }) => f.slug === slug);
  /** The stored sections, with the shuffle flags /v1's form detail does not carry. */
  const storedSections = async (id: string) => (await findForm(bed.t.ctx.db, bed.t.ctx, { companyId, id }))!.content.sections as unknown as Section[];

  /** Every row of /v1's scan for the cut, with answers, following the cursors. */
  async function scan(formId: string, query: string): Promise<Item[]> {
    const items: Item[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Item[]; meta: { nextCursor: string | null } } = await v1(`/forms/${formId}/responses?limit=100&include=answers&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      items.push(...page.data);
      cursor = page.meta.nextCursor;
    } while (cursor);
    return items;
  }

  async function signIn() {
    const { email, password } = await panelUser(bed.t, { companyId, permissions: ['responses'] });
    const { context, page, cspErrors } = await bed.open();
    await signInPage(page, bed.origin, { email, password });
    return { context, page, cspErrors };
  }

  /** Picks an option of a Mantine Select by its label. */
  async function pick(page: Page, label: string, option: string | RegExp) {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option }).click();
  }
  const chooseForm = (page: Page, name: string) => pick(page, 'Form', new RegExp(`^${name} \\(`));

  /** A cell as the export writes it: choices by label, lists joined, formulas defused (the file format, written out independently). */
  function expectedCell(question: Question, value: unknown): string {
    const label = (choices: Choice[] | undefined, id: string) => choices?.find((c) => c.id === id)?.name ?? id;
    if (value === undefined || value === null) return '';
    switch (question.type) {
      case 'RADIO':
      case 'SELECT':
        return label(question.options, value as string);
      case 'CHECKBOX':
        return (value as string[]).map((id) => label(question.options, id)).join('; ');
      case 'RANKING':
        return (value as string[]).map((id) => label(question.options, id)).join(' > ');
      case 'MATRIX':
        return Object.entries(value as Record<string, string>).map(([r, c]) => `${label(question.rows, r)}: ${label(question.columns, c)}`).join('; ');
      case 'FILE':
        return (value as { name: string }[]).map((f) => f.name).join('; ');
      default:
        return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
    }
  }

  /**
   * The order columns of a form that shuffles (docs/contract.md, "Exports"): position.<question> of a section
   * shuffling its questions, optionsShown.<question> of a listed question whose options it shuffles.
   */
  function orderColumns(sections: Section[]): { header: string; cell: (order: PresentedOrder) => string }[] {
    const listed = new Set(['RADIO', 'SELECT', 'CHECKBOX', 'RANKING']);
    return sections.flatMap((section) => [
      ...(section.shuffleQuestions ? section.questions : []).map((q) => ({
        header: `position.${q.name}`,
        cell: (order: PresentedOrder) => {
          const place = order?.[section.id]?.questions?.indexOf(q.id) ?? -1;
          return place < 0 ? '' : String(place + 1);
        },
      })),
      ...(section.shuffleOptions ? section.questions.filter((q) => listed.has(q.type)) : []).map((q) => ({
        header: `optionsShown.${q.name}`,
        cell: (order: PresentedOrder) => (order?.[section.id]?.options?.[q.id] ?? []).map((id) => q.options.find((o) => o.id === id)!.name).join('; '),
      })),
    ]);
  }

  /** The rows the export must hold for these scan items (header first), with each response's stored order read from /v1. */
  async function expectedRows(items: Item[], sections: Section[], dimKeys: string[]): Promise<string[][]> {
    const fields = ['name', 'email', 'phone', 'externalId'];
    const questions = sections.flatMap((section) => section.questions);
    const order = orderColumns(sections);
    const orders = new Map<string, PresentedOrder>();
    if (order.length > 0) for (const item of items) orders.set(item.id, (await v1(`/responses/${item.id}`)).data.presentedOrder);
    return [
      ['id', 'createdAt', 'completedAt', ...fields.map((f) => `respondent.${f}`), ...dimKeys.map((k) => `dim.${k}`), ...questions.map((q) => q.name), ...order.map((c) => c.header)],
      ...items.map((item) => [
        item.id,
        item.createdAt,
        item.completedAt ?? '',
        ...fields.map((f) => item.respondent?.[f] ?? ''),
        ...dimKeys.map((k) => item.dims[k] ?? ''),
        ...questions.map((q) => expectedCell(q, item.answers[q.id])),
        ...order.map((c) => c.cell(orders.get(item.id) ?? null)),
      ]),
    ];
  }

  /** A CSV export and an XLSX export of the table's cut, each compared with the expected rows. */
  async function expectExportsMatch(page: Page, want: string[][]) {
    const csv = parse(readFileSync(await exportFile(page, 'Export CSV'), 'utf8').replace(/^\uFEFF/, '')) as string[][];
    expect(csv).toEqual(want);
    await checkPage(page, 'responses-export-done');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await exportFile(page, 'Export XLSX'));
    const sheetRows: string[][] = [];
    workbook.getWorksheet('Responses')!.eachRow({ includeEmpty: true }, (row) => {
      sheetRows.push(want[0].map((_, i) => {
        const value = row.getCell(i + 1).value;
        return value === null || value === undefined ? '' : String(value);
      }));
    });
    // XLSX cells are values, never formulas: no apostrophe there.
    expect(sheetRows).toEqual(want.map((row) => row.map((cell) => cell.replace(/^'(?=[=+\-@\t\r])/, ''))));
  }

  async function exportFile(page: Page, button: string): Promise<string> {
    await page.getByRole('button', { name: button }).click();
    const link = page.getByRole('link', { name: /^Download / });
    await link.waitFor();
    const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), link.click()]);
    return (await download.path())!;
  }

  it('filters the demo responses like the API, chooses columns, exports CSV and XLSX row for row, opens and deletes a response', async () => {
    const { context, page, cspErrors } = await signIn();
    const form = await formBySlug('term-evaluation');
    const detail = (await v1(`/forms/${form.id}`)).data;
    const questions: Question[] = detail.content.sections.flatMap((s: { questions: Question[] }) => s.questions);
    const dimKeys = ['course', 'teacher', 'campus', 'cohort', 'cohortYear', 'termStart'];

    await page.goto(`${bed.origin}/panel/responses`);
    await page.getByRole('heading', { name: 'Responses', level: 1 }).waitFor();
    await page.getByText('Choose a form to read its responses.').waitFor();
    await checkPage(page, 'responses-choose-form');

    await chooseForm(page, 'End-of-term evaluation');
    const all = await v1(`/forms/${form.id}/responses?limit=100`);
    await page.getByRole('status').filter({ hasText: `${all.meta.total.toLocaleString('en')} responses` }).waitFor();
    await page.getByRole('region', { name: 'Responses of End-of-term evaluation' }).waitFor();
    await checkPage(page, 'responses-table');

    // A cut: the days from the 60th newest response on, and one cohort.
    const from = all.data[59].createdAt.slice(0, 10);
    const cohort = (all.data as Item[]).find((item) => item.dims.cohort)!.dims.cohort;
    const query = `from=${from}&dim.cohort=${encodeURIComponent(cohort)}`;
    const expected = await scan(form.id, query);
    expect(expected.length).toBeGreaterThan(1);
    await page.getByLabel('From (UTC day)').fill(from);
    await page.getByLabel('Dim “cohort”').fill(cohort);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const countLine = expected.length === 1 ? '1 response' : `${expected.length} responses`;
    await page.getByRole('status').filter({ hasText: new RegExp(`^${countLine}$`) }).waitFor();
    // The table's rows are the scan's, in its order (each row links to its response).
    const links = page.getByRole('region', { name: 'Responses of End-of-term evaluation' }).getByRole('link');
    await expect.poll(async () => (await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).slice(0, 5)).toEqual(
      expected.slice(0, 5).map((item) => `/panel/responses/${item.id}`),
    );
    await checkPage(page, 'responses-filtered');

    // A bad period is refused beside its field.
    await page.getByLabel('To (UTC day)', { exact: true }).fill('2000-01-01');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('This value is not accepted.').waitFor();
    await checkPage(page, 'responses-filter-error');
    await page.getByLabel('To (UTC day)', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('status').filter({ hasText: new RegExp(`^${countLine}$`) }).waitFor();

    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Dim: cohort', exact: true }).check();
    await checkPage(page, 'responses-columns');
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: 'Dim: cohort' }).waitFor();

    await expectExportsMatch(page, await expectedRows(expected, await storedSections(form.id), dimKeys));

    // The option to export keys: question headers and choices by key (the first RADIO answer of the cut as its option's key).
    await page.getByRole('checkbox', { name: 'Options and headers by key instead of label' }).check();
    const [keyHeader, ...keyRows] = parse(readFileSync(await exportFile(page, 'Export CSV'), 'utf8').replace(/^\uFEFF/, '')) as string[][];
    type Keyed = { id: string; key: string; type: string; options: Array<{ id: string; key: string }> };
    const stored = (await storedSections(form.id)).flatMap((section) => section.questions) as unknown as Keyed[];
    const firstQuestion = 3 + 4 + dimKeys.length;
    expect(keyHeader.slice(firstQuestion, firstQuestion + stored.length)).toEqual(stored.map((q) => q.key));
    const radio = stored.find((q) => q.type === 'RADIO' && expected[0].answers[q.id] !== undefined)!;
    expect(keyRows[0][keyHeader.indexOf(radio.key)]).toBe(radio.options.find((o) => o.id === expected[0].answers[radio.id])!.key);
    await page.getByRole('checkbox', { name: 'Options and headers by key instead of label' }).uncheck();

    // One response: its answers as the respondent saw the questions.
    const target = expected[0];
    await links.first().click();
    await page.getByRole('heading', { name: 'Response — End-of-term evaluation', level: 1 }).waitFor();
    const firstAnswered = questions.find((q) => target.answers[q.id] !== undefined && q.type === 'RADIO')!;
    await page.getByText(expectedCell(firstAnswered, target.answers[firstAnswered.id]), { exact: true }).first().waitFor();
    await checkPage(page, 'response-page');

    const before = (await v1(`/forms/${form.id}/statistics`)).data.responseCount;
    await page.getByRole('button', { name: 'Delete this response' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this response?' });
    await dialog.waitFor();
    await checkPage(page, 'response-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByRole('heading', { name: 'Responses', level: 1 }).waitFor();
    expect((await bed.t.get(token, `/v1/responses/${target.id}`)).statusCode).toBe(404);
    expect((await v1(`/forms/${form.id}/statistics`)).data.responseCount).toBe(before - 1);

    expect(cspErrors).toEqual([]);
    await context.close();
  }, 240_000);

  it('shows the order each respondent saw, on the response page and in both exports', async () => {
    const { id } = await importForm(bed.t.ctx.db, bed.t.ctx, { companyId, rawJson: shuffledForm('shuffled-browser') });
    const sections = await storedSections(id);
    const [mixed] = sections;
    const pick = mixed.questions.find((q) => q.name === 'Pick one')!;
    for (const name of ['Ana', 'Bia']) {
      const invite = await bed.t.post(token, `/v1/forms/${id}/invites`, { name, email: `${name.toLowerCase()}@shuffled.test` });
      expect(invite.statusCode, invite.body).toBe(201);
      const submit = await bed.t.app.inject({ method: 'POST', url: `/r/v1/invites/${invite.json().data.token}/submit`, payload: { answers: { [pick.id]: pick.options[1].id } } });
      expect(submit.statusCode, submit.body).toBe(201);
    }
    const { context, page, cspErrors } = await signIn();
    await page.goto(`${bed.origin}/panel/responses`);
    await chooseForm(page, 'Shuffled');
    await page.getByRole('status').filter({ hasText: /^2 responses$/ }).waitFor();
    const items = await scan(id, '');
    await expectExportsMatch(page, await expectedRows(items, sections, []));

    const record = (await v1(`/responses/${items[0].id}`)).data;
    const seen = record.presentedOrder[mixed.id];
    await page.getByRole('region', { name: 'Responses of Shuffled' }).getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Response — Shuffled', level: 1 }).waitFor();
    await page.getByText('Questions in the order this respondent saw them.').waitFor();
    // The page lists the first section's questions in the stored order, and each shuffled question's options as shown.
    const shownQuestions = await page.locator('[data-question]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-question')));
    expect(shownQuestions.slice(0, mixed.questions.length)).toEqual(seen.questions);
    const optionNames = (seen.options[pick.id] as string[]).map((optionId) => pick.options.find((o) => o.id === optionId)!.name);
    expect(optionNames.at(-1)).toBe('Other');
    await page.getByText(`Options shown in this order: ${optionNames.join('; ')}`, { exact: true }).waitFor();
    await checkPage(page, 'response-page-shuffled');

    expect(cspErrors).toEqual([]);
    await context.close();
  }, 240_000);

  it('opens the dashboard of the form chosen before with one request for each of its first data, and draws every question card', async () => {
    const { context, page, cspErrors } = await signIn();
    await page.goto(`${bed.origin}/panel/statistics`);
    const term = await formBySlug('term-evaluation');
    await chooseForm(page, 'End-of-term evaluation');
    const stats = (await v1(`/forms/${term.id}/statistics`)).data;
    await page.getByText(`${stats.responseCount.toLocaleString('en')} responses ·`, { exact: false }).first().waitFor();

    // The tab keeps the chosen form: a reload is a cold visit of its dashboard (the session preloaded by
    // the page, the figures by the route's loader, each asked once, not again by the page on mount).
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/panel/api/')) asked.push(`${url.pathname}${url.search}`);
    });
    await page.reload();
    const cards = page.getByRole('main').locator('section[aria-labelledby]');
    await cards.nth(stats.questions.length - 1).waitFor();
    expect(await cards.count()).toBe(stats.questions.length);
    expect(asked.sort()).toEqual(['/panel/api/responses/forms?limit=100', `/panel/api/responses/forms/${term.id}`, '/panel/api/session', `/panel/api/statistics/forms/${term.id}`].sort());

    expect(cspErrors).toEqual([]);
    await context.close();
  }, 240_000);

  it('shows the dashboard with charts and table views, compares two periods, explains an anonymous form and never reveals a suppressed group', async () => {
    const { context, page, cspErrors } = await signIn();
    await page.goto(`${bed.origin}/panel/statistics`);
    await page.getByRole('heading', { name: 'Statistics', level: 1 }).waitFor();
    await checkPage(page, 'statistics-choose-form');

    const term = await formBySlug('term-evaluation');
    await chooseForm(page, 'End-of-term evaluation');
    const stats = (await v1(`/forms/${term.id}/statistics`)).data;
    await page.getByText(`${stats.responseCount.toLocaleString('en')} responses ·`, { exact: false }).first().waitFor();
    // The cards after the first row are drawn while the browser is idle: every question's card comes, in order.
    const cards = page.getByRole('main').locator('section[aria-labelledby]');
    await cards.nth(stats.questions.length - 1).waitFor();
    expect(await cards.locator('h3').allInnerTexts()).toEqual(stats.questions.map((q: { name: string }) => q.name));
    await checkPage(page, 'statistics-charts');
    const npsQuestion = stats.questions.find((q: { nps?: unknown }) => q.nps);
    await page.getByRole('radiogroup', { name: `View of “${npsQuestion.name}”` }).getByText('Table').click();
    await page.getByRole('table', { name: npsQuestion.name }).getByRole('row', { name: /NPS score/ }).waitFor();

    await page.getByRole('switch', { name: 'Compare with another period' }).check();
    const mid = new Date(Date.parse(stats.firstAt) / 2 + Date.parse(stats.lastAt) / 2).toISOString().slice(0, 10);
    await page.getByLabel('To (UTC day)', { exact: true }).fill(mid);
    await page.getByLabel('Second period from (UTC day)').fill(mid);
    await page.getByRole('button', { name: 'Show' }).click();
    const [a, b] = [(await v1(`/forms/${term.id}/statistics?to=${mid}`)).data, (await v1(`/forms/${term.id}/statistics?from=${mid}`)).data];
    await page.getByText(`Period A: ${a.responseCount.toLocaleString('en')} responses`, { exact: false }).waitFor();
    await page.getByText(`Period B: ${b.responseCount.toLocaleString('en')} responses`, { exact: false }).waitFor();
    await checkPage(page, 'statistics-compare');

    // The anonymous form, grouped by org unit.
    const anon = await formBySlug('orientation-week-2025');
    await chooseForm(page, 'Orientation week 2025');
    await page.getByText(/Anonymous form: groups under the anonymity floor/).waitFor();
    await pick(page, 'Grouped report by', 'Org unit');
    await page.getByRole('button', { name: 'Show' }).click();
    const table = page.getByTestId('report-table');
    await table.waitFor();
    await checkPage(page, 'statistics-anonymous-report');

    const report = (await v1(`/forms/${anon.id}/report?groupBy=orgUnit`)).data;
    const whole = (await v1(`/forms/${anon.id}/statistics`)).data.responseCount;
    const suppressed = report.groups.filter((g: { suppressed: boolean }) => g.suppressed);
    expect(suppressed.length).toBeGreaterThan(0);
    // What the page shows of each group: a suppressed one, only the word.
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => ({ suppressed: tr.getAttribute('data-suppressed') === 'true', cells: Array.from(tr.children).map((c) => c.textContent ?? '') })));
    const shownCount = new Map<string, number>();
    for (const [i, row] of rows.entries()) {
      const group = report.groups[i];
      expect(row.suppressed).toBe(group.suppressed);
      if (row.suppressed) expect(row.cells[1], group.key).toBe('Suppressed');
      else shownCount.set(group.key, Number(/^([\d,]+) response/.exec(row.cells[1])![1].replace(/,/g, '')));
    }
    const pageText = (await page.locator('main').innerText()).replace(/,/g, '');
    const numbersOnPage = new Set((pageText.match(/\d+/g) ?? []).map(Number));
    // The page shows the whole cut's count and each visible group's, never a total of groups.
    expect(numbersOnPage.has(whole)).toBe(true);
    // Every difference a reader can form (the whole, or a visible unit, minus its nearest visible subunits) is 0 or at least the floor.
    const floor = 5;
    const { rows: units } = await bed.t.ctx.pool.query<{ id: string; parent_id: string | null }>(`SELECT id, parent_id FROM entities WHERE company_id = $1 AND kind = 'unit'`, [companyId]);
    const parentOf = new Map(units.map((u) => [u.id, u.parent_id]));
    const nearestShownAncestor = (key: string): string | null => {
      let parent = parentOf.get(key) ?? null;
      while (parent !== null && !shownCount.has(parent)) parent = parentOf.get(parent) ?? null;
      return parent;
    };
    for (const top of [null, ...shownCount.keys()]) {
      const own = top === null ? whole : shownCount.get(top)!;
      const covered = [...shownCount.entries()].filter(([key]) => key !== top && nearestShownAncestor(key) === top).reduce((sum, [, n]) => sum + n, 0);
      const residual = own - covered;
      expect(residual === 0 || residual >= floor, `residual ${residual} under ${top ?? 'the whole form'}`).toBe(true);
    }

    // A cut of one small unit is refused, and the page says why without a figure.
    await pick(page, 'Cut by dim', 'campus');
    await page.getByLabel('Dim value').fill(suppressed[0].key);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(/fewer possible authors than the company’s anonymity floor|Some fields need attention/).first().waitFor();
    expect(await page.getByText(/^Answered: /).count()).toBe(0);
    await checkPage(page, 'statistics-anonymous-refused');

    expect(cspErrors).toEqual([]);
    await context.close();
  }, 240_000);
});
