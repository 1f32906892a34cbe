/**
 * The Integrations area in Chromium, end to end against the real server: sign in, create an API key
 * and call /v1/me with the token the page showed once, revoke it and see /v1 refuse it; create a
 * webhook to a real local receiver, press Test and watch its delivery settle, rotate the secret and
 * see the receiver verify the next ping with the new one; page the keys and the delivery log, send a
 * Test with a message, edit a webhook. axe at both sizes on every state.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';
import { panelUser } from './panel.js';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser, signIn as signInPage } from './panel-browser.js';
import { startReceiver, verifiesWith, type Receiver } from './webhooks.js';
import { startDeliveryLoop, type DeliveryLoop } from '../src/features/webhooks/deliver-loop.js';
import { createSubscription } from '../src/features/webhooks/create-subscription.js';
import { pingSubscription } from '../src/features/webhooks/ping-subscription.js';

describe.skipIf(!chromiumRuns('the Integrations browser tests'))('Integrations in the panel', () => {
  let bed: PanelBrowser;
  let receiver: Receiver;
  let loop: DeliveryLoop;

  beforeAll(async () => {
    bed = await startPanelBrowser();
    receiver = await startReceiver(() => ({ status: 200, body: 'received' }));
    // A real worker loop: new deliveries are picked up on their NOTIFY, as in production.
    loop = await startDeliveryLoop(bed.t.ctx, { listen: true, pollIntervalMs: 500 });
  }, 240_000);
  afterAll(async () => {
    await loop?.stop();
    await receiver?.close();
    await bed?.close();
  });

  async function signIn(permissions: Parameters<typeof panelUser>[1] = { permissions: ['integrations'] }, allowed = true) {
    const { email, password, companyId } = await panelUser(bed.t, permissions);
    const { context, page, cspErrors } = await bed.open();
    await signInPage(page, bed.origin, { email, password });
    await page.goto(`${bed.origin}/panel/integrations`);
    if (allowed) await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    return { context, page, cspErrors, companyId: companyId! };
  }

  /** The value of the dialog's once-shown secret, then the dialog closed. */
  async function takeSecret(page: Page, name: string): Promise<string> {
    const field = page.getByTestId('once-secret');
    await field.waitFor();
    const value = await field.inputValue();
    await checkPage(page, name);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await field.waitFor({ state: 'detached' });
    return value;
  }

  it('creates a key whose token works on /v1/me, shows its last use, and revokes it so /v1 answers 401', async () => {
    const { context, page, cspErrors, companyId } = await signIn();
    await page.getByText('No API keys yet').waitFor();
    await checkPage(page, 'integrations-keys-empty');

    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => dialog.getByText('Required').count()).toBeGreaterThan(0);
    await dialog.getByLabel('Name').fill('SIS integration');
    await dialog.getByRole('checkbox', { name: 'surveys:read' }).check();
    await checkPage(page, 'integrations-key-form');
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const token = await takeSecret(page, 'integrations-key-token');
    expect(token).toMatch(/^qk_/);
    const me = await bed.t.get(token, '/v1/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ company: { id: companyId }, apiKey: { name: 'SIS integration', scopes: ['surveys:read'] } });

    const row = page.getByRole('row').filter({ hasText: 'SIS integration' });
    await expect.poll(() => row.getByText('Active').count()).toBe(1);
    // The last use is written off the request path: reload until the page shows it.
    await eventually(async () => {
      await page.reload();
      return !(await row.getByRole('cell').nth(3).innerText()).includes('Never');
    }, 10_000);
    await checkPage(page, 'integrations-keys-list');

    await row.getByRole('button', { name: 'Revoke SIS integration' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    await eventually(async () => (await bed.t.get(token, '/v1/me')).statusCode === 401);
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 400_000);

  it('creates a webhook to a local receiver, shows the Test delivery, and rotates the secret', async () => {
    const { context, page, cspErrors } = await signIn();
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet').waitFor();
    await checkPage(page, 'integrations-webhooks-empty');

    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByLabel('Address (URL)').fill('ftp://nowhere.test/x');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    // The server's field error, shown beside the field.
    await expect.poll(() => dialog.getByLabel('Address (URL)').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'integrations-webhook-form-error');
    await dialog.getByLabel('Address (URL)').fill(receiver.url('/quorum'));
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const secret = await takeSecret(page, 'integrations-webhook-secret');
    expect(secret).toMatch(/^whsec_/);

    const card = page.getByRole('article', { name: receiver.url('/quorum') });
    await card.getByRole('button', { name: 'Test' }).click();
    const test = card.getByTestId('test-delivery');
    await test.getByText('Delivered').waitFor();
    await test.getByText(/HTTP 200/).waitFor();
    expect(receiver.received).toHaveLength(1);
    expect(verifiesWith(secret, receiver.received[0], bed.t.clock)).toBe(true);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ type: 'ping' });
    await checkPage(page, 'integrations-webhook-tested');

    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate', exact: true }).click();
    const rotated = await takeSecret(page, 'integrations-webhook-rotated');
    expect(rotated).not.toBe(secret);

    await card.getByRole('button', { name: 'Test' }).click();
    await eventually(async () => receiver.received.length === 2, 10_000);
    expect(verifiesWith(rotated, receiver.received[1], bed.t.clock)).toBe(true);

    // A new webhook's delivery log is open beneath it (the button shows it pressed).
    expect(await card.getByRole('button', { name: 'Delivery log' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('heading', { name: `Delivery log of ${receiver.url('/quorum')}` }).waitFor();
    await expect.poll(() => page.locator('[data-delivery-id]').count()).toBe(2);
    await checkPage(page, 'integrations-webhook-log');

    await card.getByRole('button', { name: 'Disable' }).click();
    await card.getByText('Disabled by a person').waitFor();
    expect(await card.getByRole('button', { name: 'Test' }).isDisabled()).toBe(true);
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 400_000);

  it('pages the keys and the delivery log with "Load more", sends a Test with a message, and edits a webhook', async () => {
    const { context, page, cspErrors, companyId } = await signIn();
    for (let i = 0; i < 55; i += 1) await bed.t.key(companyId);
    const { subscription } = await createSubscription(bed.t.ctx.db, bed.t.ctx, { companyId, url: receiver.url('/paged') });
    for (let i = 0; i < 52; i += 1) await pingSubscription(bed.t.ctx.db, bed.t.ctx, { companyId, subscriptionId: subscription.id });
    await page.reload();

    const keyRows = page.locator('[data-key-id]');
    await expect.poll(() => keyRows.count()).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => keyRows.count()).toBe(55);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await checkPage(page, 'integrations-keys-paged');

    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const card = page.getByRole('article', { name: receiver.url('/paged') });
    await card.getByLabel('Test message (optional)').fill('Hello from the SIS team');
    await card.getByRole('button', { name: 'Test' }).click();
    await card.getByTestId('test-delivery').getByText('Delivered').waitFor();
    await eventually(async () => receiver.received.some((r) => JSON.parse(r.body).data.message === 'Hello from the SIS team'), 20_000);

    await card.getByRole('button', { name: 'Delivery log' }).click();
    const logRows = page.locator('[data-delivery-id]');
    await expect.poll(() => logRows.count()).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => logRows.count()).toBe(53);
    await checkPage(page, 'integrations-webhook-log-paged');

    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit webhook' });
    await dialog.getByLabel('Address (URL)').fill('ftp://nowhere.test/x');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => dialog.getByLabel('Address (URL)').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'integrations-webhook-edit-error');
    await dialog.getByLabel('Address (URL)').fill(receiver.url('/edited'));
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('article', { name: receiver.url('/edited') }).waitFor();
    const { rows } = await bed.t.ctx.pool.query("SELECT details FROM audit_records WHERE company_id = $1 AND action = 'webhook.updated'", [companyId]);
    expect(rows).toEqual([{ details: { subscriptionId: subscription.id, from: { url: receiver.url('/paged') }, to: { url: receiver.url('/edited') } } }]);
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 400_000);

  it('shows a member without the integrations permission the "no permission" page', async () => {
    const { context, page } = await signIn({ permissions: ['forms'] }, false);
    await page.getByRole('heading', { name: 'You do not have permission to see this' }).waitFor();
    expect(await page.getByRole('button', { name: 'New API key' }).count()).toBe(0);
    await context.close();
  }, 400_000);
});
