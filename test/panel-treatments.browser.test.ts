/**
 * The Treatments area in Chromium against the real server: the board counts a flow's cases, a case
 * page shows its response, steps and deadline in the company's time zone; advancing and closing
 * emit treatment.* events (read back from GET /v1/events) and reopening emits none, all of it in
 * the case's history. axe at both sizes on every state.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelUser } from './panel.js';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser, signIn as signInPage } from './panel-browser.js';
import { createFlowSurvey, respond } from './treatments.js';

describe.skipIf(!chromiumRuns('the Treatments browser tests'))('Treatments in the panel', () => {
  let bed: PanelBrowser;

  beforeAll(async () => {
    bed = await startPanelBrowser();
  }, 240_000);
  afterAll(async () => bed?.close());

  async function signIn(permissions: NonNullable<Parameters<typeof panelUser>[1]>['permissions']) {
    const { email, password, companyId } = await panelUser(bed.t, { permissions });
    const { context, page } = await bed.open();
    await signInPage(page, bed.origin, { email, password });
    return { context, page, companyId: companyId! };
  }

  async function treatmentEvents(companyId: string): Promise<Array<{ type: string; data: { number: number; outcome?: string | null; stepIndex: number } }>> {
    const { token } = await bed.t.key(companyId, { scopes: ['events:read'] });
    const res = await bed.t.get(token, '/v1/events?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    // Under the test's frozen clock both events share one instant, so their order says nothing: by type.
    return res.json().data.filter((e: { type: string }) => e.type.startsWith('treatment.')).sort((a: { type: string }, b: { type: string }) => a.type.localeCompare(b.type));
  }

  const historyItems = (page: Page) => page.getByRole('region', { name: 'History' }).locator('.mantine-Timeline-itemTitle').allTextContents();

  it('shows the board and a case, advances, closes with a reason and reopens it: events for the first two, history for all', async () => {
    const { context, page, companyId } = await signIn(['treatments']);
    await page.goto(`${bed.origin}/panel/treatments`);
    await page.getByText('No cases yet').waitFor();
    await checkPage(page, 'treatments-empty');

    const survey = await createFlowSurvey(bed.t, companyId, { timeZone: 'America/Sao_Paulo' });
    await respond(bed.t, survey, 1, '2026-03-02T12:00:00.000Z');
    await respond(bed.t, survey, 5, '2026-03-02T12:00:00.000Z');
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'Low rating follow-up' });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([expect.any(String), 'Low rating follow-up', '1', '0', '0']);
    await page.getByText('1 case').waitFor();
    await checkPage(page, 'treatments-board');

    await page.getByRole('link', { name: 'Open case #1' }).click();
    await page.getByRole('heading', { name: 'Case #1', level: 1 }).waitFor();
    await page.getByText('Times in America/Sao_Paulo').waitFor();
    // The deadline is the stored instant written in the company's zone, not in UTC (Intl's spaces normalised).
    const due = page.locator('time').filter({ hasText: /^Due / });
    const dueAt = new Date((await due.getAttribute('datetime'))!);
    const written = (timeZone: string) => `Due ${new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(dueAt)}`.replace(/\s+/g, ' ');
    expect((await due.textContent())!.replace(/\s+/g, ' ')).toBe(written('America/Sao_Paulo'));
    expect(written('America/Sao_Paulo')).not.toBe(written('UTC'));
    await expect.poll(() => page.getByRole('region', { name: 'Response' }).textContent()).toContain('1');
    await checkPage(page, 'treatments-case-open');

    await page.getByRole('button', { name: 'Step done' }).click();
    await page.getByText('Step recorded.').waitFor();
    await expect.poll(() => historyItems(page)).toEqual(['Opened', 'Advanced, step 2']);

    // The reason is required: the page says so beside the field, and nothing is sent.
    await page.getByRole('combobox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'Other' }).click();
    await page.getByRole('button', { name: 'Close case' }).click();
    await page.getByText('Required', { exact: true }).waitFor();
    await checkPage(page, 'treatments-close-form');
    await page.getByLabel(/^Reason/).fill('Moved to another school');
    await page.getByRole('button', { name: 'Close case' }).click();
    await page.getByText('Case closed.').waitFor();
    await page.getByText('Outcome: Other').waitFor();
    await expect.poll(() => historyItems(page)).toEqual(['Opened', 'Advanced, step 2', 'Closed: Other']);
    await page.getByText('Reason: Moved to another school').first().waitFor();
    await checkPage(page, 'treatments-case-closed');

    const beforeReopen = await treatmentEvents(companyId);
    expect(beforeReopen.map((e) => e.type)).toEqual(['treatment.closed', 'treatment.opened']);
    expect(beforeReopen[0].data).toMatchObject({ number: 1, outcome: 'other', stepIndex: 1 });

    await page.getByRole('button', { name: 'Reopen case' }).click();
    await page.getByText('Case reopened.').waitFor();
    await expect.poll(() => historyItems(page)).toEqual(['Opened', 'Advanced, step 2', 'Closed: Other', 'Reopened on step 2']);
    await page.getByRole('button', { name: 'Step done and resolve' }).waitFor();
    await checkPage(page, 'treatments-case-reopened');
    // Reopening is recorded in the history only: no event (spec).
    expect((await treatmentEvents(companyId)).map((e) => e.type)).toEqual(['treatment.closed', 'treatment.opened']);

    await page.getByRole('link', { name: 'Back to the board' }).click();
    await page.locator('label').filter({ hasText: /^Closed$/ }).click();
    await page.getByText('No cases match.').waitFor();
    await context.close();
  }, 240_000);

  it('shows the no-permission page to a member without treatments', async () => {
    const { context, page } = await signIn(['rosters']);
    await page.goto(`${bed.origin}/panel/treatments`);
    await page.getByRole('heading', { name: /permission/i }).waitFor();
    await context.close();
  }, 240_000);
});
