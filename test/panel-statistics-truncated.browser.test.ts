/**
 * The dashboard's `truncated` explained, in Chromium: with a scan ceiling of 3, a report that
 * needs a scan (a cut by one dim grouped by another) reads only the newest 3 responses, and the page
 * says its figures are partial, how many were read, and how to get complete ones. axe at both sizes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelUser } from './panel.js';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser, signIn } from './panel-browser.js';
import { createStatsSurvey, record } from './statistics.js';

const CEILING = 3;

describe.skipIf(!chromiumRuns('the Statistics truncation browser test'))('partial figures on the dashboard', () => {
  let bed: PanelBrowser;

  beforeAll(async () => {
    bed = await startPanelBrowser({ config: { statisticsScanCeiling: CEILING } });
  }, 600_000);
  afterAll(async () => bed?.close());

  async function pick(page: Page, label: string, option: string | RegExp) {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option }).click();
  }

  it('explains truncated figures with the count read, as the API reports them', async () => {
    const { companyId } = await panelUser(bed.t, { permissions: [] });
    const survey = await createStatsSurvey(bed.t, companyId!);
    await record(
      bed.t,
      survey,
      Array.from({ length: 6 }, (_, i) => ({ at: `2026-03-0${i + 1}T10:00:00.000Z`, dims: { course: i < 5 ? 'math' : 'hist', year: String(2025 + (i % 2)) } })),
    );
    const { token } = await bed.t.key(companyId!, { scopes: ['reports:read'] });
    const report = await bed.t.get(token, `/v1/forms/${survey.form.id}/report?groupBy=dim.year&dim.course=math`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().data).toMatchObject({ truncated: true, scanned: CEILING });

    // Signed in after the clock moved to the responses' days.
    const { email, password } = await panelUser(bed.t, { companyId, permissions: ['responses'] });
    const { context, page, cspErrors } = await bed.open();
    await signIn(page, bed.origin, { email, password });
    await page.goto(`${bed.origin}/panel/statistics`);
    await pick(page, 'Form', /^Statistics survey \(/);
    await pick(page, 'Cut by dim', 'course');
    await page.getByLabel('Dim value').fill('math');
    await pick(page, 'Grouped report by', 'Dim: year');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('report-table').waitFor();
    const notice = page.getByRole('status').filter({ hasText: 'These figures are partial' });
    await notice.getByText(`(${CEILING} read, the newest)`, { exact: false }).waitFor();
    await notice.getByText('Narrow the period to get complete figures.', { exact: false }).waitFor();
    await checkPage(page, 'statistics-truncated');

    expect(cspErrors).toEqual([]);
    await context.close();
  }, 240_000);
});
