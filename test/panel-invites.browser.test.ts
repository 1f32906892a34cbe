/**
 * The Invites area in Chromium, end to end against the real server: import 50 contacts from a CSV
 * with two bad rows, see the errors before anything is written, fix them in place, import with
 * progress, send the import by e-mail after its dry run (quota and skips), open one message in
 * the development mailbox, answer it, and see the invite's timeline reach responded. axe and
 * screenshots at both sizes on every state.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importForm } from '../src/features/forms/import-form.js';
import { emailKind } from '../src/features/messaging/email-kind.js';
import { startOutboundLoop } from '../src/platform/outbound/loop.js';
import { minimalForm } from './forms.js';
import { panelUser } from './panel.js';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser } from './panel-browser.js';

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

  it('imports 50 contacts, fixes two bad rows, sends by e-mail, and follows one invite to responded', async () => {
    const { email, password, companyId } = await panelUser(bed.t, { permissions: ['invites'] });
    const { id: formId } = await importForm(bed.t.ctx.db, bed.t.ctx, { companyId: companyId!, rawJson: minimalForm('library', { name: 'Library survey', settings: { language: 'en' } }) });
    const { context, page } = await bed.open();
    await page.goto(`${bed.origin}/panel/sign-in`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /^Hello, / }).waitFor();

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
    expect(await invitesOf(bed, companyId!)).toBe(0);
    await checkPage(page, 'invites-import-errors');
    await dialog.getByRole('textbox', { name: 'Line 5, email' }).fill('person04@school.test');
    await dialog.getByRole('textbox', { name: 'Line 9, expiresAt' }).fill('2026-12-31T23:59:59Z');
    await dialog.getByRole('button', { name: 'Check the rows' }).click();
    await dialog.getByText('All 50 rows are ready to import.').waitFor();
    await dialog.getByRole('button', { name: 'Import 50 rows' }).click();
    await dialog.getByText('50 invites created from 50 rows', { exact: false }).waitFor();
    expect(await invitesOf(bed, companyId!)).toBe(50);
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
    const { email, password } = await panelUser(bed.t, { permissions: ['settings'] });
    const { context, page } = await bed.open();
    await page.goto(`${bed.origin}/panel/sign-in`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /^Hello, / }).waitFor();
    await page.goto(`${bed.origin}/panel/invites`);
    await page.getByRole('heading', { level: 1 }).filter({ hasNotText: 'Invites' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Invites', level: 1 }).count()).toBe(0);
    await context.close();
  }, 120_000);
});

async function invitesOf(bed: PanelBrowser, companyId: string): Promise<number> {
  const { rows } = await bed.t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invites WHERE company_id = ${companyId}`);
  return rows[0].n;
}
