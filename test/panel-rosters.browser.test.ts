/**
 * The Rosters area in Chromium against the real server: enrollments with the API's filters, one
 * status changed by hand (enrollment.dropped on a real change), classes and class groups; a sync
 * import that would drop too much of a class is refused with the threshold explained and nothing
 * applied; a safe one (the CLI's CSV files, uploaded) shows its diff per class first and, once
 * confirmed, drops and announces exactly what it showed (read back from GET /v1/events); a OneRoster
 * package's files, uploaded, show their diff and what the import leaves out, and a delta package is
 * not synced. axe at both sizes on every state.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRoster, type ImportRosterInput } from '../src/features/rosters/import-roster.js';
import { panelUser } from './panel.js';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser, signIn as signInPage } from './panel-browser.js';
import { MANIFEST, ONEROSTER } from './oneroster-package.js';
import { registerSchool, rosterPayload, studentId } from './rosters.js';

describe.skipIf(!chromiumRuns('the Rosters browser tests'))('Rosters in the panel', () => {
  let bed: PanelBrowser;

  beforeAll(async () => {
    bed = await startPanelBrowser();
  }, 240_000);
  afterAll(async () => bed?.close());

  async function signIn() {
    const { email, password, companyId } = await panelUser(bed.t, { permissions: ['rosters'] });
    const { context, page } = await bed.open();
    await signInPage(page, bed.origin, { email, password });
    return { context, page, companyId: companyId! };
  }

  async function droppedEvents(companyId: string): Promise<Array<{ classCode: string; externalId: string; previousStatus: string }>> {
    const { token } = await bed.t.key(companyId, { scopes: ['events:read'] });
    const res = await bed.t.get(token, '/v1/events?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.filter((e: { type: string }) => e.type === 'enrollment.dropped').map((e: { data: object }) => e.data);
  }

  async function activeIn(companyId: string, classCode: string): Promise<string[]> {
    const { rows } = await bed.t.ctx.pool.query<{ external_id: string }>(
      `SELECT p.external_id FROM enrollments e JOIN people p ON p.id = e.person_id JOIN classes c ON c.id = e.class_id
        WHERE e.company_id = $1 AND c.code = $2 AND e.status <> 'dropped' ORDER BY 1`,
      [companyId, classCode],
    );
    return rows.map((r) => r.external_id);
  }

  const chooseFiles = (page: Page, files: Array<{ name: string; text: string }>) =>
    page.locator('input[type=file]').setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.name.endsWith('.json') ? 'application/json' : 'text/csv', buffer: Buffer.from(f.text) })));

  it('lists, filters and changes enrollments by hand; shows classes and class groups', async () => {
    const { context, page, companyId } = await signIn();
    await page.goto(`${bed.origin}/panel/rosters`);
    await page.getByText('No enrollments yet').waitFor();
    await checkPage(page, 'rosters-empty');

    await registerSchool(bed.t, companyId);
    await importRoster(bed.t.ctx.db, bed.t.ctx, { ...(rosterPayload(2, 3) as unknown as ImportRosterInput), companyId });
    await page.reload();
    await page.getByText('6 enrollments').waitFor();
    await checkPage(page, 'rosters-enrollments');

    await page.getByLabel('Class code').fill('C1');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('3 enrollments').waitFor();

    const select = page.getByRole('combobox', { name: 'Status of Student 3 in C1' });
    await select.click();
    await page.getByRole('option', { name: 'Dropped' }).click();
    await page.getByText('An enrollment.dropped event was sent.').waitFor();
    expect(await droppedEvents(companyId)).toMatchObject([{ classCode: 'C1', externalId: studentId(3), previousStatus: 'enrolled' }]);
    expect(await activeIn(companyId, 'C1')).toEqual([studentId(4), studentId(5)]);
    await checkPage(page, 'rosters-enrollment-changed');

    await page.getByRole('tab', { name: 'Classes' }).click();
    const c1 = page.getByRole('row').filter({ hasText: 'Class 1' });
    await c1.waitFor();
    expect(await c1.getByRole('cell').allTextContents()).toEqual(['C1', 'Class 1', 'Year 2026', 'History', 'South', '2 / 0 / 1']);
    await checkPage(page, 'rosters-classes');
    await page.getByRole('tab', { name: 'Class groups' }).click();
    await page.getByRole('row').filter({ hasText: 'Year 2026' }).waitFor();
    await checkPage(page, 'rosters-groups');
    await context.close();
  }, 240_000);

  it('refuses a sync that drops too much (nothing applied), then previews a safe CSV sync and applies it after confirmation', async () => {
    const { context, page, companyId } = await signIn();
    await registerSchool(bed.t, companyId);
    await importRoster(bed.t.ctx.db, bed.t.ctx, { ...(rosterPayload(2, 5) as unknown as ImportRosterInput), companyId });
    await page.goto(`${bed.origin}/panel/rosters`);
    await page.getByRole('tab', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Import a roster' }).waitFor();
    await checkPage(page, 'rosters-import');

    // A JSON roster naming only 2 of class C0's 5 students: a sync would drop 60% of it.
    const risky = { enrollments: [0, 1].map((i) => ({ externalId: studentId(i), classCode: 'C0', status: 'enrolled' })) };
    await chooseFiles(page, [{ name: 'roster.json', text: JSON.stringify(risky) }]);
    await page.getByRole('combobox', { name: 'Mode' }).click();
    await page.getByRole('option', { name: /^Sync/ }).click();
    await page.getByRole('button', { name: 'Preview changes' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Refused: nothing was applied' });
    await refusal.waitFor();
    await refusal.getByText('at most 20% of a class').waitFor();
    expect(await refusal.getByRole('row').filter({ hasText: 'C0' }).getByRole('cell').allTextContents()).toEqual(['C0', '5', '3', '60%']);
    await expect.poll(() => page.getByRole('button', { name: 'Apply this import' }).count()).toBe(0);
    await checkPage(page, 'rosters-import-refused');
    expect(await activeIn(companyId, 'C0')).toHaveLength(5);

    // The CLI's folder, uploaded: C0 without one student (20%, at the threshold), and an unknown class.
    await page.locator('label').filter({ hasText: /^CSV files$/ }).click();
    const enrollmentsCsv = ['externalId,classCode,status', ...[0, 1, 2, 3].map((i) => `${studentId(i)},C0,enrolled`), `${studentId(0)},NOPE,enrolled`].join('\n');
    await chooseFiles(page, [{ name: 'enrollments.csv', text: enrollmentsCsv }, { name: 'notes.txt', text: 'hello' }]);
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await page.getByRole('heading', { name: 'What the import would do' }).waitFor();
    await page.getByText('Enrollments the sync drops because the files leave them out: 1').waitFor();
    expect(await page.getByRole('region', { name: 'Enrollments per class' }).getByRole('row').filter({ hasText: 'C0' }).getByRole('cell').allTextContents()).toEqual([
      'C0', '0', '0', '4', '1',
    ]);
    await page.getByText('enrollments[4].classCode').waitFor();
    await page.getByText('Files not read (not a roster file): notes.txt').waitFor();
    await checkPage(page, 'rosters-import-preview');
    // A preview applies nothing.
    expect(await activeIn(companyId, 'C0')).toHaveLength(5);
    expect(await droppedEvents(companyId)).toEqual([]);

    await page.getByRole('button', { name: 'Apply this import' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, apply' }).click();
    await page.getByText('Import applied. enrollment.dropped events sent: 1.').waitFor();
    await page.getByRole('heading', { name: 'What the import did' }).waitFor();
    await checkPage(page, 'rosters-import-applied');
    expect(await activeIn(companyId, 'C0')).toEqual([0, 1, 2, 3].map(studentId));
    expect(await droppedEvents(companyId)).toMatchObject([{ classCode: 'C0', externalId: studentId(4), previousStatus: 'enrolled' }]);
    await context.close();
  }, 240_000);

  it('imports a OneRoster package from its files: the diff first with what it leaves out, applied on confirmation; a delta is not synced', async () => {
    const { context, page, companyId } = await signIn();
    const upload = (pkg: Record<string, string[]>) => Object.entries(pkg).map(([name, lines]) => ({ name, text: lines.join('\r\n') }));
    await page.goto(`${bed.origin}/panel/rosters`);
    await page.getByRole('tab', { name: 'Import' }).click();
    await page.locator('label').filter({ hasText: /^OneRoster$/ }).click();
    await page.getByText('OneRoster package files (manifest.csv and the rest)').waitFor();
    await chooseFiles(page, upload(ONEROSTER));
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await page.getByRole('heading', { name: 'What the import would do' }).waitFor();
    expect(await page.getByRole('region', { name: 'Enrollments per class' }).getByRole('row').filter({ hasText: 'cls-alg-1a' }).getByRole('cell').allTextContents()).toEqual([
      'cls-alg-1a', '4', '0', '0', '0',
    ]);
    await page.getByText('Files not read (not a roster file): README.txt, demographics.csv').waitFor();
    await page.getByText('users.csv: shoeSize (column not read)').waitFor();
    await page.getByText('users.csv: 1 row(s) with role parent (only students and teachers are imported)').waitFor();
    await checkPage(page, 'rosters-import-oneroster-preview');
    expect(await activeIn(companyId, 'cls-alg-1a')).toEqual([]);

    await page.getByRole('button', { name: 'Apply this import' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, apply' }).click();
    await page.getByRole('heading', { name: 'What the import did' }).waitFor();
    expect(await activeIn(companyId, 'cls-alg-1a')).toEqual(['stu-1', 'stu-2', 'stu-3', 'stu-4']);

    // A delta package lists changes only: a sync of it is refused beside the mode.
    await chooseFiles(page, upload({ 'manifest.csv': MANIFEST('delta'), 'enrollments.csv': ONEROSTER['enrollments.csv'].slice(0, 2) }));
    await page.getByRole('combobox', { name: 'Mode' }).click();
    await page.getByRole('option', { name: /^Sync/ }).click();
    await page.getByRole('button', { name: 'Preview changes' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Some fields need attention.' });
    await refusal.getByText('mode: The package is a delta (manifest.csv: file.enrollments=delta): import it with upsert; sync needs bulk files.').waitFor();
    await checkPage(page, 'rosters-import-oneroster-delta');
    expect(await droppedEvents(companyId)).toEqual([]);
    await context.close();
  }, 240_000);
});
