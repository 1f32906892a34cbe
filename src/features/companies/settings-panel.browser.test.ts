/**
 * The Settings area in Chromium against the real server: the company's time zone kept after a
 * reload, a refusal shown beside its field, the suppression list (add, search, remove), the
 * WhatsApp channel whose token never comes back, the brand colour and logo; axe-clean at both
 * sizes on every tab.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser, signIn } from '../../../test/panel-browser.js';
import { PIXEL_PNG } from '../../../test/images.js';
import { panelUser } from '../../../test/panel.js';

describe.skipIf(!chromiumRuns('the settings browser tests'))('settings in Chromium', () => {
  let p: PanelBrowser;
  beforeAll(async () => {
    p = await startPanelBrowser();
  }, 180_000);
  afterAll(async () => {
    await p?.close();
  });

  /** A member with the settings permission, signed in through the sign-in page, on /panel/settings. */
  async function settingsPage(): Promise<{ page: Page; close: () => Promise<void> }> {
    const { email, password } = await panelUser(p.t, { permissions: ['settings'] });
    const { context, page } = await p.open();
    await signIn(page, p.origin, { email, password });
    await page.goto(`${p.origin}/panel/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    return { page, close: () => context.close() };
  }

  const tab = async (page: Page, name: string) => {
    await page.getByRole('tab', { name }).click();
    await page.getByRole('tabpanel').waitFor();
  };

  it('the company tab: a time zone saved is there after a reload; a bad one is refused beside its field', async () => {
    const { page, close } = await settingsPage();
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.waitFor();
    expect(await zone.inputValue()).toBe('UTC');
    await page.getByText(/^Left: 10,000 of 10,000$/).waitFor();
    // the monthly quota is the operator's cap: shown, not editable here
    await page.getByText(/set by the operator of this Quorum installation/).waitFor();
    expect(await page.getByRole('textbox', { name: /Monthly message quota/ }).count()).toBe(0);
    await checkPage(page, 'settings-company');

    await zone.fill('America/Sao_Paulo');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.reload();
    await expect.poll(() => page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('America/Sao_Paulo');

    await page.getByRole('combobox', { name: 'Time zone' }).fill('Mars/Base');
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Company name' }).fill('Escola do Teste');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const refused = page.getByRole('combobox', { name: 'Time zone' });
    await expect.poll(() => refused.getAttribute('aria-invalid')).toBe('true');
    // the message sits in the field's own description, where a screen reader announces it
    const describedBy = (await refused.getAttribute('aria-describedby')) ?? '';
    const texts = await Promise.all(describedBy.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(texts.join(' | ')).toMatch(/This value is not accepted\.|IANA time zone/);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    await checkPage(page, 'settings-company-refused');
    await page.reload();
    await expect.poll(() => page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('America/Sao_Paulo');
    expect(await page.getByRole('textbox', { name: 'Company name' }).inputValue()).not.toBe('Escola do Teste');
    await close();
  }, 180_000);

  it('logo and colour: a colour too light for white text is refused beside its field, a dark one saved; a logo uploaded shows and is removed', async () => {
    const { page, close } = await settingsPage();
    const color = page.getByRole('textbox', { name: 'Brand colour' });
    await color.waitFor();
    await page.getByText('No logo.').waitFor();
    await color.fill('#ffcc00');
    await page.getByRole('button', { name: 'Save colour' }).click();
    await expect.poll(() => color.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await color.getAttribute('aria-describedby')) ?? '';
    const texts = await Promise.all(describedBy.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(texts.join(' | ')).toContain('Too light: white text on this colour would be hard to read');
    await checkPage(page, 'settings-brand-refused');
    await color.fill('#0f766e');
    await page.getByRole('button', { name: 'Save colour' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PIXEL_PNG });
    await page.getByRole('status').filter({ hasText: 'Logo saved.' }).waitFor();
    const logo = page.getByRole('img', { name: 'Current logo' });
    await expect.poll(() => logo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByRole('textbox', { name: 'Brand colour' }).inputValue()).toBe('#0f766e');
    await page.getByRole('img', { name: 'Current logo' }).waitFor();
    await checkPage(page, 'settings-brand');
    await page.locator('input[type=file]').setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a....') });
    await page.getByText('This file was not accepted: use a PNG, JPEG or WebP image of at most 100 KB.').waitFor();
    await page.getByRole('button', { name: 'Remove logo' }).click();
    await page.getByRole('status').filter({ hasText: 'Logo removed.' }).waitFor();
    await page.getByText('No logo.').waitFor();
    await close();
  }, 180_000);

  it('the suppression list: add two, search, take one off', async () => {
    const { page, close } = await settingsPage();
    await tab(page, 'Suppression list');
    await page.getByText('No suppressed address.').waitFor();
    await checkPage(page, 'settings-suppressions-empty');

    const contact = page.getByRole('textbox', { name: 'E-mail address or phone number' });
    await contact.fill(' Ana@School.edu ');
    await page.getByRole('button', { name: 'Suppress' }).click();
    await page.getByRole('status').filter({ hasText: 'ana@school.edu is now suppressed.' }).waitFor();
    await contact.fill('(11) 98765-4321');
    await page.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Complained' }).click();
    await page.getByRole('button', { name: 'Suppress' }).click();
    await page.getByRole('cell', { name: '+5511987654321', exact: true }).waitFor();
    await page.getByText('2 addresses').waitFor();
    await checkPage(page, 'settings-suppressions');

    await contact.fill('not an address');
    await page.getByRole('button', { name: 'Suppress' }).click();
    await expect.poll(() => contact.getAttribute('aria-invalid')).toBe('true');

    await page.getByRole('searchbox', { name: 'Search addresses' }).fill('SCHOOL');
    await expect.poll(() => page.getByRole('cell', { name: '+5511987654321', exact: true }).count()).toBe(0);
    await page.getByRole('cell', { name: 'ana@school.edu', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Take ana@school.edu off the list' }).click();
    await page.getByRole('status').filter({ hasText: 'ana@school.edu was taken off the list.' }).waitFor();
    await page.getByText('No address contains “SCHOOL”.').waitFor();
    await page.getByRole('searchbox', { name: 'Search addresses' }).fill('');
    await page.getByRole('cell', { name: '+5511987654321', exact: true }).waitFor();
    await close();
  }, 180_000);

  it('the WhatsApp channel: the token is sent once and never shown back; the holidays tab adds and removes a day', async () => {
    const { page, close } = await settingsPage();
    const secret = 'gw-secret-token-7f3a';
    const answers: string[] = [];
    page.on('response', async (response) => {
      if (response.url().includes('/panel/api/')) answers.push(await response.text().catch(() => ''));
    });
    await tab(page, 'Channels');
    await page.getByText('No WhatsApp channel is set. Invitations go by e-mail only.').waitFor();
    await checkPage(page, 'settings-channels-empty');
    await page.getByRole('radio', { name: 'Gateway (plain text over HTTP)' }).check();
    await page.getByRole('textbox', { name: 'Gateway address' }).fill('https://gateway.example/send');
    await page.getByLabel('Token').fill(secret);
    await page.getByRole('button', { name: 'Save' }).nth(1).click();
    await page.getByText('Token set').waitFor();
    expect(await page.getByLabel('Token').inputValue()).toBe('');

    await page.reload();
    await tab(page, 'Channels');
    await page.getByText('Token set').waitFor();
    expect(await page.getByRole('textbox', { name: 'Gateway address' }).inputValue()).toBe('https://gateway.example/send');
    expect(await page.getByLabel('Token').inputValue()).toBe('');
    expect(await page.content()).not.toContain(secret);
    expect(answers.some((body) => body.includes(secret))).toBe(false);
    await checkPage(page, 'settings-channels');

    await tab(page, 'Holidays');
    await page.getByText('No company holidays yet.').waitFor();
    await page.getByRole('textbox', { name: 'Day', exact: true }).fill('2026-12-24');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Recesso de fim de ano');
    await page.getByRole('button', { name: 'Add holiday' }).click();
    await page.getByRole('cell', { name: 'Recesso de fim de ano' }).waitFor();
    await checkPage(page, 'settings-holidays');
    await page.getByRole('button', { name: 'Remove the holiday of 2026-12-24' }).click();
    await page.getByText('No company holidays yet.').waitFor();
    await close();
  }, 180_000);
});
