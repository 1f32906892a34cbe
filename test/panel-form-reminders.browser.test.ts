/**
 * A form's reminder schedules in Chromium against the real server: a member who may send sets an
 * e-mail schedule (one that never reminds refused beside its field), sees its status and removes it; a member
 * without the invites permission sees no Reminders tab. axe at phone and desktop size.
 */
import { expect, it } from 'vitest';
import { panelUser } from './panel.js';
import { checkPage, signIn, describePanelBrowser } from './panel-browser.js';
import { importForm } from '../src/features/forms/import-form.js';

const FORM = { slug: 'reminded', name: 'Reminded form', sections: [{ key: 'main', name: 'Main', questions: [{ key: 'rating', name: 'Rate us', type: 'NPS' }] }] };

describePanelBrowser('Reminder schedules on the form page', (bed) => {
  const schedules = async (formId: string) =>
    (await bed().t.ctx.pool.query('SELECT channel, after_days, max_reminders, local_hour, final_days_before FROM reminder_schedules WHERE form_id = $1', [formId])).rows;

  it('sets an e-mail schedule, refuses one that never reminds beside its field, shows the status and removes it', async () => {
    const user = await panelUser(bed().t, { permissions: ['forms', 'invites'] });
    const { id } = await importForm(bed().t.ctx.db, bed().t.ctx, { companyId: user.companyId!, rawJson: FORM });
    const { context, page } = await bed().open();
    await signIn(page, bed().origin, user);
    await page.goto(`${bed().origin}/panel/forms/${id}`);
    await page.getByRole('tab', { name: 'Reminders' }).click();
    const email = page.getByRole('region', { name: 'E-mail' });
    await email.getByText('No schedule: nobody is reminded on this channel.').waitFor();
    await checkPage(page, 'forms-reminders-empty');

    // No regular reminder and no final one: the server refuses, beside the field it names.
    await email.getByLabel('First reminder after (days)').fill('4');
    await email.getByLabel('At most (reminders)').fill('0');
    await email.getByRole('button', { name: 'Save schedule' }).click();
    await expect.poll(() => email.getByLabel('At most (reminders)').getAttribute('aria-invalid')).toBe('true');
    expect(await schedules(id)).toEqual([]);

    await email.getByLabel('At most (reminders)').fill('2');
    await email.getByLabel(/^From the hour/).fill('8');
    await email.getByLabel('Final reminder before expiry (days)').fill('2');
    await email.getByRole('button', { name: 'Save schedule' }).click();
    await email.getByTestId('reminder-status-email').getByText(/invites still to remind/).waitFor();
    expect(await schedules(id)).toEqual([{ channel: 'email', after_days: 4, max_reminders: 2, local_hour: 8, final_days_before: 2 }]);
    await checkPage(page, 'forms-reminders-set');

    await email.getByRole('button', { name: 'Remove schedule' }).click();
    await email.getByText('No schedule: nobody is reminded on this channel.').waitFor();
    expect(await schedules(id)).toEqual([]);
    await context.close();
  }, 240_000);

  it('shows no Reminders tab to a member who may not send', async () => {
    const user = await panelUser(bed().t, { permissions: ['forms'] });
    const { id } = await importForm(bed().t.ctx.db, bed().t.ctx, { companyId: user.companyId!, rawJson: FORM });
    const { context, page } = await bed().open();
    await signIn(page, bed().origin, user);
    await page.goto(`${bed().origin}/panel/forms/${id}`);
    await page.getByRole('tab', { name: 'Treatment flows' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Reminders' }).count()).toBe(0);
    await context.close();
  }, 240_000);
});
