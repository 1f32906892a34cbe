/**
 * The builder's Settings say which languages a form's respondents may choose (its own and each
 * complete translation) and what an incomplete translation lacks; saving keeps the translations.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { panelUser } from './panel.js';
import { checkPage, signIn, describePanelBrowser } from './panel-browser.js';
import { importForm } from '../src/features/forms/import-form.js';

describePanelBrowser('The languages of a form in the builder', (bed) => {
  it('lists the offered languages and what an incomplete translation lacks, and a save keeps the translations', async () => {
    const user = await panelUser(bed().t, { permissions: ['forms'] });
    const demo = JSON.parse(readFileSync(new URL('../src/demo/data/term-evaluation.json', import.meta.url), 'utf8'));
    // Spanish without its option texts of "materials": kept, not offered
    delete demo.translations.es.questions.materials.options;
    const { id } = await importForm(bed().t.ctx.db, bed().t.ctx, { companyId: user.companyId!, rawJson: demo });
    const { context, page } = await bed().open();
    await signIn(page, bed().origin, user);
    await page.goto(`${bed().origin}/panel/forms/${id}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const languages = page.getByTestId('form-languages');
    await languages.getByText('Respondents choose among: English, Português (Brasil)').waitFor();
    expect(await languages.innerText()).toContain('Español: not offered until translated whole (missing: 3, first questions.materials.options.book).');
    await checkPage(page, 'forms-settings-languages');

    await page.getByRole('textbox', { name: /^Name/ }).first().fill('End-of-term evaluation (2026)');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await bed().t.ctx.pool.query('SELECT name FROM forms WHERE id = $1', [id])).rows[0].name).toBe('End-of-term evaluation (2026)');
    const stored = (await bed().t.ctx.pool.query('SELECT content FROM forms WHERE id = $1', [id])).rows[0].content;
    expect(stored.translations).toEqual(demo.translations);
    await context.close();
  }, 300_000);
});
