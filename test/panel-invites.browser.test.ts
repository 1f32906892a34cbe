/**
 * The Invites area in Chromium, end to end against the real server: import 50 contacts from a CSV
 * with two bad rows, see the errors before anything is written, fix them in place, import with
 * progress, send the import by e-mail after its dry run (quota and skips), open one message in
 * the development mailbox, answer it, and see the invite's timeline reach responded; a long
 * import's progress while its parts are under way; a list of thousands of invites scrolled to its
 * end (pages read as it scrolls, only the rows in view drawn) with selection and revoke. axe and
 * screenshots at both sizes on every state.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialog, Page, Route } from 'playwright-core';
import type { Permission } from '../src/features/memberships/index.js';
import { findForm } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';
import { importInviteRows } from '../src/features/invites/import-invites.js';
import { emailKind } from '../src/features/messaging/email-kind.js';
import { startOutboundLoop } from '../src/platform/outbound/loop.js';
import { minimalForm } from './forms.js';
import { panelUser } from './panel.js';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser, signIn as signInPage } from './panel-browser.js';

/** Invites of the scrolling test: a few thousand, 30 pages of the API's largest page. */
const MANY = 3000;

/** 50 contacts; line 5 has no e-mail address, line 9 an expiry that is no date-time. */
function contactsCsv(): string {
  const rows = Array.from({ length: 50 }, (_, i) => {
    const n = String(i + 1).padStart(2, '0');
    if (i === 3) return `Person ${n},not-an-address,`;
    if (i === 7) return `Person ${n},person${n}@school.test,next friday`;
    return `Person ${n},person${n}@school.test,`;
  });
  return ['Full name,Email,expiresAt', ...rows].join('\n') + '\n';
}

describe.skipIf(!chromiumRuns('the Invites browser tests'))('Invites in the panel', () => {
  let bed: PanelBrowser;
  beforeAll(async () => {
    bed = await startPanelBrowser();
  }, 240_000);
  afterAll(async () => bed?.close());

  async function signIn(permissions: Permission[]) {
    const { email, password, companyId } = await panelUser(bed.t, { permissions });
    const { context, page } = await bed.open();
    await signInPage(page, bed.origin, { email, password });
    return { context, page, companyId: companyId! };
  }

  it('imports 50 contacts, fixes two bad rows, sends by e-mail, and follows one invite to responded', async () => {
    const { context, page, companyId } = await signIn(['invites']);
    const { id: formId } = await importForm(bed.t.ctx.db, bed.t.ctx, { companyId, rawJson: minimalForm('library', { name: 'Library survey', settings: { language: 'en' } }) });

    await page.goto(`${bed.origin}/panel/invites`);
    await page.getByRole('heading', { name: 'Invites', level: 1 }).waitFor();
    await page.getByText('Choose a form to see its invites.').waitFor();
    await checkPage(page, 'invites-pick-form');
    await page.goto(`${bed.origin}/panel/invites?form=${formId}`);
    await page.getByText('No invites yet').waitFor();
    await checkPage(page, 'invites-empty');

    // The file: read by the server, previewed, its columns mapped from their names.
    await page.getByRole('button', { name: 'Import a list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a list' });
    await dialog.locator('input[type=file]').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(contactsCsv()) });
    await dialog.getByText('First rows of contacts.csv (50 rows)').waitFor();
    expect(await dialog.getByLabel('Column “Email”').inputValue()).toBe('E-mail');
    await checkPage(page, 'invites-import-mapping');

    // The check writes nothing and lists both bad rows by line.
    await dialog.getByRole('button', { name: 'Check the rows' }).click();
    await dialog.getByText('2 rows have errors.', { exact: false }).waitFor();
    expect(await invitesOf(bed, companyId)).toBe(0);
    await checkPage(page, 'invites-import-errors');
    await dialog.getByRole('textbox', { name: 'Line 5, email' }).fill('person04@school.test');
    await dialog.getByRole('textbox', { name: 'Line 9, expiresAt' }).fill('2026-12-31T23:59:59Z');
    await dialog.getByRole('button', { name: 'Check the rows' }).click();
    await dialog.getByText('All 50 rows are ready to import.').waitFor();
    await dialog.getByRole('button', { name: 'Import 50 rows' }).click();
    await dialog.getByText('50 invites created from 50 rows', { exact: false }).waitFor();
    expect(await invitesOf(bed, companyId)).toBe(50);
    await checkPage(page, 'invites-import-done');

    // The send of the import: first what it will do, then the send.
    await dialog.getByRole('button', { name: 'Send this import' }).click();
    const send = page.getByRole('dialog', { name: 'Send invites' });
    expect(await send.getByRole('radio', { name: 'The import just made' }).isChecked()).toBe(true);
    await send.getByRole('button', { name: 'See what it will do' }).click();
    await send.getByText('50 messages will be queued.').waitFor();
    await send.getByText(/this send needs 50, \d+ left of/).waitFor();
    await checkPage(page, 'invites-send-preview');
    const { rows: before } = await bed.t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM invite_messages WHERE company_id = ${companyId}`);
    expect(before[0]).toEqual({ n: 0 });
    await send.getByRole('button', { name: 'Send 50' }).click();
    await send.getByText('50 messages queued.').waitFor();
    await send.getByRole('button', { name: 'Close' }).first().click();

    // The worker's e-mail loop delivers into the development mailbox.
    const loop = await startOutboundLoop(bed.t.ctx, emailKind(bed.t.ctx), { listen: false, pollIntervalMs: null });
    await loop.drain();
    await loop.stop();
    await page.goto(`${bed.origin}/dev/mail`);
    await page.getByRole('cell', { name: 'person04@school.test' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'person04@school.test' }).getByRole('link').click();
    const text = await page.locator('pre').innerText();
    const token = /\/i\/([A-Za-z0-9_-]{43,})/.exec(text)![1];
    await page.goto(`${bed.origin}/i/${token}`);
    await page.getByRole('textbox', { name: 'Q' }).fill('Quiet rooms, please');
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByRole('heading', { name: /Thank you/ }).waitFor();

    // Back in the panel: counts moved, and the timeline of that invite ends with responded.
    await page.goto(`${bed.origin}/panel/invites?form=${formId}`);
    await page.getByTestId('count-responded').waitFor();
    expect(await page.getByTestId('count-responded').textContent()).toBe('Responded: 1');
    await checkPage(page, 'invites-list');
    // The list draws the rows in view: the status filter brings the answered one to the top.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Responded', exact: true }).click();
    await page.getByRole('button', { name: 'Timeline: Person 04 (person04@school.test)' }).click();
    const drawer = page.getByRole('dialog', { name: 'Timeline' });
    await drawer.getByTestId('timeline').waitFor();
    // Created, queued and sent, then the respondent's stages, ending in responded.
    const stages = await drawer.getByTestId('timeline').locator('.mantine-Timeline-itemTitle').allTextContents();
    expect(stages.slice(0, 3)).toEqual(['Created', 'Queued', 'Sent']);
    expect(stages.at(-1)).toBe('Responded');
    await checkPage(page, 'invites-timeline');
    await context.close();
  }, 300_000);

  it('a member without the invites permission sees the "no permission" page', async () => {
    const { context, page } = await signIn(['settings']);
    await page.goto(`${bed.origin}/panel/invites`);
    await page.getByRole('heading', { level: 1 }).filter({ hasNotText: 'Invites' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Invites', level: 1 }).count()).toBe(0);
    await context.close();
  }, 120_000);

  /**
   * A long list imported into a new form while the written parts after the first (they name its
   * batch) wait in `held` until the test lets them through.
   */
  async function heldImport(page: Page, companyId: string, slug: string, name: string) {
    const { id: formId } = await importForm(bed.t.ctx.db, bed.t.ctx, { companyId, rawJson: minimalForm(slug, { name, settings: { language: 'en' } }) });
    const held: Route[] = [];
    await page.route(`**/panel/api/forms/${formId}/invites/import`, async (route) => {
      const body = route.request().postDataJSON() as { batchId?: string };
      if (body.batchId) held.push(route);
      else await route.continue();
    });
    return { dialog: await importLongList(page, `${bed.origin}/panel/invites?form=${formId}`), held };
  }

  it('a long import shows its progress while parts are under way', async () => {
    const { context, page, companyId } = await signIn(['invites']);
    const { dialog, held } = await heldImport(page, companyId, 'progress', 'Progress survey');

    // The first part is written; the next two are sent together and held: the bar stands at a third.
    await dialog.getByText('Imported 2000 of 6000 rows…').waitFor();
    await expect.poll(() => held.length).toBe(2);
    expect(await dialog.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('33');
    expect(await invitesOf(bed, companyId)).toBe(2000);
    await checkPage(page, 'invites-import-progress');

    for (const route of held.splice(0)) await route.continue();
    await dialog.getByText('6000 invites created from 6000 rows', { exact: false }).waitFor();
    expect(await invitesOf(bed, companyId)).toBe(6000);
    await context.close();
  }, 180_000);

  it('a part that fails stops the import and says so, after the part under way has come back', async () => {
    const { context, page, companyId } = await signIn(['invites']);
    const { dialog, held } = await heldImport(page, companyId, 'failing', 'Failing import');
    await expect.poll(() => held.length).toBe(2);
    // the second part fails; the third, sent beside it, is written and comes back afterwards
    const [second, third] = held.splice(0);
    await second.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'Try again later.', requestId: 'test' } }) });
    const thirdAnswer = page.waitForResponse((response) => response.request() === third.request());
    await third.continue();
    await thirdAnswer;
    await dialog.getByRole('alert').waitFor();
    await dialog.getByRole('button', { name: 'Check the rows' }).waitFor();
    expect(await dialog.getByText(/^Imported \d+ of 6000 rows/).count()).toBe(0);
    expect(held).toEqual([]);
    expect(await invitesOf(bed, companyId)).toBe(4000);
    await checkPage(page, 'invites-import-failed');
    await context.close();
  }, 180_000);

  it('a form with thousands of invites scrolls to its last one, reading pages as it goes, and selection still works', async () => {
    const { context, page, companyId } = await signIn(['invites']);
    const form = await importForm(bed.t.ctx.db, bed.t.ctx, { companyId, rawJson: minimalForm('many', { name: 'Many invites', settings: { language: 'en' } }) });
    const rows = Array.from({ length: MANY }, (_, i) => ({ line: i + 2, record: { name: `Person ${i}`, email: `many${i}@school.test` } }));
    const formRecord = await findForm(bed.t.ctx.db, bed.t.ctx, { companyId, id: form.id });
    await importInviteRows(bed.t.ctx.db, bed.t.ctx, { companyId, form: formRecord, columns: ['name', 'email'], rows });

    const acceptConfirm = (dialog: Dialog) => void dialog.accept();
    page.on('dialog', acceptConfirm);
    await page.goto(`${bed.origin}/panel/invites?form=${form.id}`);
    const list = page.getByRole('region', { name: 'Invites of Many invites' });
    const loaded = page.getByTestId('invites-loaded');
    await loaded.getByText(`100 of ${MANY.toLocaleString('en')} loaded`, { exact: false }).waitFor();
    // Only the rows in view are drawn, whatever is loaded.
    expect(await list.getByTestId('invite-row').count()).toBeLessThan(60);
    await checkPage(page, 'invites-list-virtual-top');

    // Scrolling to the end reads the next page each time, until every invite is loaded.
    for (let text = await loaded.textContent(); text !== `All ${MANY.toLocaleString('en')} loaded`; text = await loaded.textContent()) {
      await list.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      await page.waitForFunction((before) => document.querySelector('[data-testid="invites-loaded"]')?.textContent !== before, text);
    }
    await list.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    const last = list.locator(`tr[aria-rowindex="${MANY + 1}"]`);
    await last.waitFor();
    expect(await list.getByRole('table').getAttribute('aria-rowcount')).toBe(String(MANY + 1));
    expect(await list.getByTestId('invite-row').count()).toBeLessThan(60);

    // Select the last invite and one above it, then revoke the two.
    const lastBox = last.getByRole('checkbox');
    const lastLabel = (await lastBox.getAttribute('aria-label'))!;
    await lastBox.check();
    const above = list.locator(`tr[aria-rowindex="${MANY - 2}"]`).getByRole('checkbox');
    const aboveLabel = (await above.getAttribute('aria-label'))!;
    await above.check();
    await page.getByText('2 selected').waitFor();
    await checkPage(page, 'invites-list-virtual-end');
    await page.getByRole('button', { name: 'Revoke selected' }).click();
    await page.getByText('2 revoked.').waitFor();
    const { rows: revoked } = await bed.t.ctx.db.execute<{ email: string }>(sql`SELECT email FROM invites WHERE company_id = ${companyId} AND status = 'revoked' ORDER BY email`);
    const emailOf = (label: string) => /\((.+)\)$/.exec(label)![1];
    expect(revoked.map((row) => row.email)).toEqual([emailOf(lastLabel), emailOf(aboveLabel)].sort());

    // Every loaded invite selected: more than the route takes in one call, revoked in parts.
    await page.getByRole('checkbox', { name: 'Select every loaded invite' }).check();
    await page.getByRole('button', { name: 'Revoke selected' }).click();
    await page.getByText(`${MANY - 2} revoked.`, { exact: false }).waitFor();
    const { rows: left } = await bed.t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invites WHERE company_id = ${companyId} AND status <> 'revoked'`);
    expect(left[0].n).toBe(0);
    page.off('dialog', acceptConfirm);
    await context.close();
  }, 240_000);
});

/** Opens the import dialog on `url`, reads a 6,000-row list, checks it and starts its import: three parts of 2,000. */
async function importLongList(page: Page, url: string) {
  await page.goto(url);
  await page.getByRole('button', { name: 'Import a list' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import a list' });
  const csv = ['name,email', ...Array.from({ length: 6000 }, (_, i) => `Person ${i},person${i}@school.test`)].join('\n');
  await dialog.locator('input[type=file]').setInputFiles({ name: 'long.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Check the rows' }).click();
  await dialog.getByRole('button', { name: 'Import 6000 rows' }).click();
  return dialog;
}

async function invitesOf(bed: PanelBrowser, companyId: string): Promise<number> {
  const { rows } = await bed.t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invites WHERE company_id = ${companyId}`);
  return rows[0].n;
}
