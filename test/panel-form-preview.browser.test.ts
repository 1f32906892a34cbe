/**
 * The builder's live preview in Chromium against the real server: an edit shows in the respondent
 * page drawn beside the builder, at phone and desktop width, passing axe; "Try it" makes the page
 * answerable with its own script (a condition reveals a question; Next on an unanswered required
 * question shows the public page's own error) and submits nothing.
 */
import { expect, it } from 'vitest';
import { panelUser } from './panel.js';
import { checkPage, signIn, describePanelBrowser } from './panel-browser.js';
import { importForm } from '../src/features/forms/import-form.js';

const FORM = {
  slug: 'previewed',
  name: 'Previewed form',
  settings: { isPublic: true },
  sections: [
    {
      key: 'first',
      name: 'About you',
      questions: [
        { key: 'campus', name: 'Campus', type: 'RADIO', mandatory: true, options: [{ key: 'NORTH', name: 'North' }, { key: 'SOUTH', name: 'South' }] },
        { key: 'why', name: 'Why north?', type: 'TEXT', visibleIf: { question: 'campus', equals: 'NORTH' } },
      ],
    },
    { key: 'second', name: 'Your courses', questions: [{ key: 'grid', name: 'Rate them', type: 'MATRIX', rows: [{ key: 'math', name: 'Maths' }], columns: [{ key: 'good', name: 'Good' }, { key: 'bad', name: 'Bad' }] }] },
  ],
};

describePanelBrowser('The builder preview', (bed) => {
  it('shows edits in the respondent page at both widths, and its try-it submits nothing', async () => {
    const user = await panelUser(bed().t, { permissions: ['forms', 'responses'] });
    const { id } = await importForm(bed().t.ctx.db, bed().t.ctx, { companyId: user.companyId!, rawJson: FORM });
    const { rows: [{ slug: companySlug }] } = await bed().t.ctx.pool.query('SELECT slug FROM companies WHERE id = $1', [user.companyId]);
    const { rows: [{ content }] } = await bed().t.ctx.pool.query('SELECT content FROM forms WHERE id = $1', [id]);
    const campusId: string = content.sections[0].questions[0].id;
    const { context, page, cspErrors } = await bed().open();
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' && !request.url().includes('/panel/api/')) posts.push(`${request.method()} ${request.url()}`);
    });
    await signIn(page, bed().origin, user);
    await page.goto(`${bed().origin}/panel/forms/${id}`);
    await page.getByRole('heading', { name: 'Previewed form', level: 1 }).waitFor();

    const frameElement = page.getByTestId('form-preview');
    const frame = page.frameLocator('[data-testid="form-preview"]');
    await frame.getByRole('heading', { name: 'Previewed form', level: 1 }).waitFor();
    expect(await frameElement.getAttribute('sandbox')).toBe('allow-scripts');
    expect(await frameElement.getAttribute('inert')).not.toBeNull();
    expect(await frameElement.getAttribute('data-width')).toBe('390');
    // the condition hides the question until it is met
    expect(await frame.getByRole('textbox', { name: /^Why north/, includeHidden: true }).isHidden()).toBe(true);

    // an unsaved edit reaches the preview
    const campus = page.locator('li[data-question-key="campus"]').getByLabel('Question text');
    await campus.fill('Which campus do you study at?');
    await frame.getByText('Which campus do you study at?').waitFor();
    await checkPage(page, 'forms-preview-phone');

    await page.getByText('Desktop', { exact: true }).click();
    await expect.poll(() => frameElement.getAttribute('data-width')).toBe('1366');
    await frame.getByText('Which campus do you study at?').waitFor();
    await checkPage(page, 'forms-preview-desktop');

    await page.getByRole('combobox', { name: 'Section shown' }).click();
    await page.getByRole('option', { name: '2. Your courses' }).click();
    await frame.getByRole('heading', { name: 'Your courses', level: 2 }).waitFor();
    await page.getByRole('combobox', { name: 'Section shown' }).click();
    await page.getByRole('option', { name: '1. About you' }).click();
    await frame.getByRole('heading', { name: 'About you', level: 2 }).waitFor();

    // try it: the page is answerable and its own script runs (a condition reveals a question);
    // answered, Next sends nothing (the sandbox blocks the form's submission once its checks pass)
    await page.getByRole('button', { name: 'Try it' }).click();
    await expect.poll(() => frameElement.getAttribute('inert')).toBeNull();
    // Next with the required question unanswered: the error the public link's page shows, on the
    // same question, and the focus moved to it
    await frame.getByRole('button', { name: 'Next' }).press('Enter');
    const tryError = frame.locator('#e-' + campusId);
    await tryError.waitFor();
    const publicPage = await context.newPage();
    await publicPage.goto(`${bed().origin}/f/${companySlug}/previewed`);
    await publicPage.getByRole('button', { name: 'Next' }).press('Enter');
    const publicError = publicPage.locator('#e-' + campusId);
    await publicError.waitFor();
    expect(await tryError.textContent()).toBe(await publicError.textContent());
    expect(await tryError.textContent()).toBe('Please answer this question.');
    await publicPage.close();
    expect(await frame.getByRole('group', { name: /campus/i }).getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'forms-preview-try-required');
    // by keyboard: the frame is scaled to fit, which pointer coordinates do not follow
    await frame.getByRole('radio', { name: 'North' }).press('Space');
    await frame.getByRole('textbox', { name: /^Why north/ }).fill('Closer to home');
    await frame.getByRole('button', { name: 'Next' }).press('Enter');
    await frame.getByRole('heading', { name: 'About you', level: 2 }).waitFor();
    expect(await frame.getByRole('textbox', { name: /^Why north/ }).inputValue()).toBe('Closer to home');
    await checkPage(page, 'forms-preview-try');
    expect(posts).toEqual([]);
    expect(cspErrors).toEqual([]);
    const stored = (await bed().t.ctx.pool.query('SELECT count(*)::int AS n FROM responses WHERE form_id = $1', [id])).rows[0].n;
    expect(stored).toBe(0);
    // the edit was never saved: the preview stored nothing
    const saved = (await bed().t.ctx.pool.query('SELECT content FROM forms WHERE id = $1', [id])).rows[0].content;
    expect(saved.sections[0].questions[0].name).toBe('Campus');
    await context.close();
  }, 180_000);
});
