/**
 * A form's treatment flows in Chromium against the real server: a flow added with the builder's
 * condition editor, a step and an effectiveness check, listed, edited by its key and removed;
 * axe at phone and desktop size.
 */
import { expect, it } from 'vitest';
import { panelUser } from './panel.js';
import { checkPage, signIn, describePanelBrowser } from './panel-browser.js';
import { importForm } from '../src/features/forms/import-form.js';

const FORM = { slug: 'followed', name: 'Followed form', sections: [{ key: 'main', name: 'Main', questions: [{ key: 'rating', name: 'Rate us', type: 'NPS' }] }] };

describePanelBrowser('Treatment flows on the form page', (bed) => {
  it('adds a flow with a condition, a step and a check, edits it and removes it', async () => {
    const user = await panelUser(bed().t, { permissions: ['forms', 'responses'] });
    const { id } = await importForm(bed().t.ctx.db, bed().t.ctx, { companyId: user.companyId!, rawJson: FORM });
    const { context, page } = await bed().open();
    await signIn(page, bed().origin, user);
    await page.goto(`${bed().origin}/panel/forms/${id}`);
    await page.getByRole('tab', { name: 'Treatment flows' }).click();
    await page.getByText('No treatment flows').waitFor();

    await page.getByRole('button', { name: 'Add flow' }).click();
    const editor = page.getByRole('form', { name: 'Add flow' });
    await editor.getByLabel('Key').fill('detractors');
    await editor.getByLabel('Name').fill('Call detractors');
    // saved without a condition: the server's field error shows
    await editor.getByLabel('What to do').fill('Call back');
    await editor.getByLabel(/^Responsible/).fill('coordinator');
    await editor.getByRole('button', { name: 'Save flow' }).click();
    await editor.getByRole('alert').waitFor();
    await editor.getByRole('button', { name: 'Add a condition' }).click();
    await editor.getByRole('combobox', { name: 'Test' }).click();
    await page.getByRole('option', { name: 'at most', exact: true }).click();
    await editor.getByLabel('Value').fill('6');
    await editor.getByLabel('Check effectiveness').check();
    await checkPage(page, 'forms-flow-editor');
    await editor.getByRole('button', { name: 'Save flow' }).click();
    const card = page.locator('[data-flow-key="detractors"]');
    await card.waitFor();
    await card.getByText('1 step').waitFor();
    await card.getByText('effectiveness checked').waitFor();
    const row = (await bed().t.ctx.pool.query('SELECT name, definition FROM treatment_flows WHERE form_id = $1', [id])).rows[0];
    expect(row.name).toBe('Call detractors');
    expect(row.definition.steps).toEqual([{ name: 'Call back', responsible: 'coordinator', dueInWorkingDays: 2 }]);
    expect(row.definition.effectivenessCheck).toMatchObject({ kind: 'date', afterWorkingDays: 10 });
    expect(row.definition.when).toEqual({ all: [{ questionId: expect.any(String), lte: 6 }] });
    await checkPage(page, 'forms-flows');

    await card.getByRole('button', { name: 'Edit the flow Call detractors' }).click();
    const edit = page.getByRole('form', { name: 'Edit the flow Call detractors' });
    await edit.getByLabel('Name').fill('Call every detractor');
    await edit.getByRole('button', { name: 'Save flow' }).click();
    await page.locator('[data-flow-key="detractors"]').getByText('Call every detractor').waitFor();
    expect((await bed().t.ctx.pool.query('SELECT count(*)::int AS n FROM treatment_flows WHERE form_id = $1', [id])).rows[0].n).toBe(1);

    await page.getByRole('button', { name: 'Remove the flow Call every detractor' }).click();
    await page.getByText('No treatment flows').waitFor();
    expect((await bed().t.ctx.pool.query('SELECT count(*)::int AS n FROM treatment_flows WHERE form_id = $1', [id])).rows[0].n).toBe(0);
    await context.close();
  }, 240_000);
});
