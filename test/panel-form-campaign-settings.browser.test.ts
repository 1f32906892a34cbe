/// <reference types="vite/client" />
/**
 * The form settings of issue 29 in the panel: a section set to shuffle its options and an option
 * kept last (the builder's checkboxes), and a hidden field of the public link (the Settings tab),
 * saved into the stored form; axe clean.
 */
import { expect, it } from 'vitest';
import { panelUser } from './panel.js';
import { checkPage, SIZES, signIn, describePanelBrowser } from './panel-browser.js';
import { importForm } from '../src/features/forms/import-form.js';

describePanelBrowser('Shuffling and hidden fields in the form editor', (bed) => {
  it('sets a section to shuffle its options, keeps "None of these" last and declares a hidden field', async () => {
    const user = await panelUser(bed().t, { permissions: ['forms', 'responses'] });
    const companyId = user.companyId!;
    const pick = { key: 'pick', name: 'Pick one', type: 'RADIO', options: [{ key: 'a', name: 'Apples' }, { key: 'none', name: 'None of these' }] };
    const { id } = await importForm(bed().t.ctx.db, bed().t.ctx, { companyId, rawJson: { slug: 'shuffle', name: 'Shuffle', sections: [{ key: 'main', name: 'Main', questions: [pick] }] } });
    const context = await bed().browser.newContext({ viewport: SIZES[0], locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await signIn(page, bed().origin, user);
    await page.goto(`${bed().origin}/panel/forms/${id}`);
    await page.getByRole('heading', { name: 'Shuffle', level: 1 }).waitFor();

    await page.getByLabel('Shuffle the options for each respondent').check();
    await page.getByLabel('Options 2: Keep last').check();
    await checkPage(page, 'forms-builder-shuffle');
    await page.getByRole('tab', { name: 'Settings' }).click();
    const hidden = page.getByRole('combobox', { name: 'Hidden fields of the public link' });
    await hidden.fill('source');
    await hidden.press('Enter');
    await checkPage(page, 'forms-settings-hidden-fields');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const stored = (await bed().t.ctx.pool.query('SELECT content FROM forms WHERE id = $1', [id])).rows[0].content;
    expect(stored.sections[0].shuffleOptions).toBe(true);
    expect(stored.sections[0].shuffleQuestions).toBeUndefined();
    expect(stored.sections[0].questions[0].options.map((o: { key: string; anchored?: boolean }) => [o.key, o.anchored ?? false])).toEqual([['a', false], ['none', true]]);
    expect(stored.hiddenFields).toEqual(['source']);
    expect(stored.dims).toEqual([{ key: 'source', kind: 'text', source: 'link' }]);
    await context.close();
  });
});
