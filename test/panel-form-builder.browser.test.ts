/**
 * The form builder by keyboard alone, in Chromium against the real server: twelve questions added
 * and typed without a mouse (the builder once broke at the eleventh), saved, and stored in order;
 * a closing date typed in the browser's time zone is stored as that instant.
 */
import { expect, it } from 'vitest';
import { panelUser } from './panel.js';
import { checkPage, SIZES, signIn, describePanelBrowser } from './panel-browser.js';
import { importForm } from '../src/features/forms/import-form.js';

describePanelBrowser('The form builder by keyboard', (bed) => {
  it('adds and types twelve questions by keyboard and saves them in order', async () => {
    const user = await panelUser(bed().t, { permissions: ['forms', 'responses'] });
    const companyId = user.companyId!;
    const { id } = await importForm(bed().t.ctx.db, bed().t.ctx, { companyId, rawJson: { slug: 'twelve', name: 'Twelve', sections: [{ key: 'main', name: 'Main', questions: [] }] } });
    // a browser in São Paulo (UTC-3 all year): the closing date typed there is stored as that instant
    const context = await bed().browser.newContext({ viewport: SIZES[0], locale: 'en-US', timezoneId: 'America/Sao_Paulo' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await signIn(page, bed().origin, user);
    await page.goto(`${bed().origin}/panel/forms/${id}`);
    await page.getByRole('heading', { name: 'Twelve', level: 1 }).waitFor();

    const add = page.getByRole('button', { name: 'Add question' });
    for (let n = 1; n <= 12; n++) {
      await add.focus();
      await page.keyboard.press('Enter');
      const card = page.locator('li[data-question-key]').nth(n - 1);
      await card.waitFor();
      await card.getByLabel('Question text').focus();
      await page.keyboard.type(`Question number ${n}`, { delay: 5 });
      // the text stays in its own field (focus not lost to a re-mounted card)
      await expect.poll(() => card.getByLabel('Question text').inputValue()).toBe(`Question number ${n}`);
    }
    expect(await page.locator('li[data-question-key]').count()).toBe(12);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'before saving' }).count()).toBe(0);
    await checkPage(page, 'forms-builder-twelve');
    await page.getByRole('button', { name: 'Save', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Saved', { exact: true }).waitFor();
    const stored = (await bed().t.ctx.pool.query('SELECT content FROM forms WHERE id = $1', [id])).rows[0].content;
    expect(stored.sections[0].questions.map((q: { name: string }) => q.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Question number ${i + 1}`));

    await page.getByRole('tab', { name: 'Settings' }).click();
    const closing = page.getByLabel('Closing date');
    await closing.fill('2026-12-01T09:30');
    await page.getByText('America/Sao_Paulo').waitFor();
    await checkPage(page, 'forms-settings-closing-date');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await bed().t.ctx.pool.query('SELECT closes_at FROM forms WHERE id = $1', [id])).rows[0].closes_at?.toISOString()).toBe('2026-12-01T12:30:00.000Z');
    await page.reload();
    await page.getByRole('tab', { name: 'Settings' }).click();
    expect(await page.getByLabel('Closing date').inputValue()).toBe('2026-12-01T09:30');
    await context.close();
  }, 300_000);
});
