/**
 * The Forms area in Chromium, end to end against the real server: build a form with every question
 * type and a condition in the builder, make it public, answer it through its public link and see
 * the response count move; edit a published form with responses, confirm the removal of an answered
 * option and see through GET /v1/responses/{id} that the stored answer keeps its ids; a member
 * without "forms" cannot reach the builder. axe at both sizes on every state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelUser } from './panel.js';
import { checkPage, chromiumRuns, startPanelBrowser, type PanelBrowser, signIn as signInPage } from './panel-browser.js';
import { importForm } from '../src/features/forms/import-form.js';
import { findForm } from '../src/features/forms/find-form.js';
import { recordResponse } from '../src/features/responses/record-response.js';
import type { Permission } from '../src/features/memberships/index.js';

const choices = (...keys: string[]) => keys.map((key) => ({ key, name: key.charAt(0) + key.slice(1).toLowerCase() }));
/** One question of each of the 16 types, the short text last (the condition's target). */
const EVERY_TYPE = {
  slug: 'ignored',
  name: 'Campus life 2026',
  sections: [{ key: 'about', name: 'About campus', questions: [
    { key: 'para', name: 'Paragraph', type: 'PARAGRAPH' }, { key: 'date', name: 'Date', type: 'DATE' }, { key: 'time', name: 'Time', type: 'TIME' },
    { key: 'when', name: 'Date and time', type: 'DATETIME' }, { key: 'num', name: 'Number', type: 'NUMBER', min: 0, max: 100, step: 1 },
    { key: 'range', name: 'Range', type: 'RANGE', min: 1, max: 5 }, { key: 'nps', name: 'Recommend', type: 'NPS' }, { key: 'stars', name: 'Stars', type: 'STAR', max: 4 },
    { key: 'bool', name: 'Yes or no', type: 'BOOLEAN' }, { key: 'campus', name: 'One choice', type: 'RADIO', options: choices('NORTH', 'SOUTH') },
    { key: 'select', name: 'Drop-down', type: 'SELECT', options: choices('RED', 'BLUE') }, { key: 'many', name: 'Several', type: 'CHECKBOX', options: choices('SPORT', 'MUSIC') },
    { key: 'rank', name: 'Ranking', type: 'RANKING', options: choices('FOOD', 'ROOMS') },
    { key: 'grid', name: 'Matrix', type: 'MATRIX', rows: choices('TEACHING', 'LABS'), columns: choices('GOOD', 'BAD') },
    { key: 'file', name: 'File', type: 'FILE' }, { key: 'text', name: 'Short text', type: 'TEXT' },
  ] }],
};

describe.skipIf(!chromiumRuns('the Forms browser tests'))('Forms in the panel', () => {
  let bed: PanelBrowser;
  beforeAll(async () => {
    bed = await startPanelBrowser();
  }, 240_000);
  afterAll(async () => bed?.close());

  async function signIn(permissions: Permission[], companyId?: string) {
    const user = await panelUser(bed.t, { permissions, ...(companyId ? { companyId } : {}) });
    const { context, page } = await bed.open();
    await signInPage(page, bed.origin, user);
    return { context, page, companyId: user.companyId! };
  }

  it('builds a form with every question type and a condition, publishes it, and counts a public answer', async () => {
    const { context, page } = await signIn(['forms', 'responses']);
    await page.goto(`${bed.origin}/panel/forms`);
    await page.getByText('No forms here').waitFor();
    await checkPage(page, 'forms-empty');

    await page.getByRole('button', { name: 'New form' }).click();
    const dialog = page.getByRole('dialog', { name: 'New form' });
    await dialog.getByLabel('Name').fill('Campus life 2026');
    expect(await dialog.getByLabel('Slug').inputValue()).toBe('campus-life-2026');
    await checkPage(page, 'forms-create');
    await dialog.getByRole('button', { name: 'Create form' }).click();
    await page.getByRole('heading', { name: 'Campus life 2026', level: 1 }).waitFor();
    // every type into the builder from a file (the JSON tab), then a condition with the visual editor
    await page.getByRole('tab', { name: 'Export and import' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: 'campus.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(EVERY_TYPE)) });
    await page.getByText('File loaded: check it and save').waitFor();
    await page.getByRole('tab', { name: 'Questions' }).click();
    const moved = page.locator('li[data-question-key="text"]');
    await page.getByRole('button', { name: 'Move up: Short text' }).click();
    await moved.getByRole('button', { name: 'Add a condition' }).click();
    await moved.getByRole('combobox', { name: 'Question' }).click();
    await page.getByRole('option', { name: 'One choice', exact: true }).click();
    await moved.getByRole('combobox', { name: 'Test' }).click();
    await page.getByRole('option', { name: 'is', exact: true }).click();
    await moved.getByRole('combobox', { name: 'Value' }).click();
    await page.getByRole('option', { name: 'North', exact: true }).click();
    // tried with the respondent pages' evaluator: hidden until the choice is North
    await expect.poll(() => moved.getByText('Hidden with the answers tried').count()).toBe(1);
    await page.getByRole('combobox', { name: 'One choice' }).first().click();
    await page.getByRole('option', { name: 'North', exact: true }).click();
    await expect.poll(() => moved.getByText('Hidden with the answers tried').count()).toBe(0);
    await checkPage(page, 'forms-builder');

    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Public link: anyone with the link may answer').check();
    await page.getByLabel('Invitation e-mail subject').fill('Hello {{nickname}}');
    await page.getByRole('alert').filter({ hasText: 'problem to fix before saving' }).waitFor();
    await checkPage(page, 'forms-settings-error');
    await page.getByLabel('Invitation e-mail subject').fill('Hello {{name}}');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'before saving' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const link = page.getByTestId('public-link');
    await link.waitFor();
    const publicUrl = (await link.getAttribute('href'))!;
    await checkPage(page, 'forms-saved');

    const form = (await bed.t.ctx.pool.query("SELECT id, content FROM forms WHERE slug = 'campus-life-2026'")).rows[0];
    const types = form.content.sections[0].questions.map((q: { type: string }) => q.type);
    expect(new Set(types).size).toBe(16);

    // answer it through its public link
    const respondent = await context.newPage();
    await respondent.goto(publicUrl.replace(/^http:\/\/[^/]+/, bed.origin));
    await respondent.getByRole('radio', { name: 'North' }).check();
    await respondent.getByRole('button', { name: 'Send answers' }).click();
    await respondent.getByRole('heading').first().waitFor();
    await expect.poll(async () => (await bed.t.ctx.pool.query('SELECT count(*)::int AS n FROM responses WHERE form_id = $1', [form.id])).rows[0].n).toBe(1);

    await page.reload();
    await expect.poll(() => page.getByTestId('response-count').textContent()).toBe('1');
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByText('Version 2').waitFor();
    await checkPage(page, 'forms-versions');
    await page.getByRole('link', { name: 'All forms' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Campus life 2026' });
    await expect.poll(() => row.locator('td[data-label="responses"]').textContent()).toBe('1');
    await checkPage(page, 'forms-list');
    await context.close();
  }, 480_000);

  it('edits a published form with responses: the removal of an answered option is confirmed and the stored answer keeps its meaning', async () => {
    const { context, page, companyId } = await signIn(['forms', 'responses']);
    const { id } = await importForm(bed.t.ctx.db, bed.t.ctx, {
      companyId,
      rawJson: { slug: 'meals', name: 'Meals', settings: { isPublic: true }, sections: [{ key: 'main', name: 'Main', questions: [{ key: 'meal', name: 'Favourite meal', type: 'RADIO', options: [{ key: 'SOUP', name: 'Soup' }, { key: 'RICE', name: 'Rice' }] }] }] },
    });
    const stored = (await findForm(bed.t.ctx.db, bed.t.ctx, { companyId, id }))!;
    const question = stored.content.sections[0].questions[0];
    const soup = question.options![0].id;
    const response = await bed.t.ctx.db.transaction((tx) => recordResponse(tx, bed.t.ctx, { form: stored, answers: { [question.id]: soup } }));

    await page.goto(`${bed.origin}/panel/forms/${id}`);
    await page.getByRole('heading', { name: 'Meals', level: 1 }).waitFor();
    await page.getByLabel('Question text').fill('Your favourite meal');
    await page.getByRole('button', { name: 'Remove Soup' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove answered items?' });
    await confirm.getByText('Soup (meal.SOUP): 1 responses').waitFor();
    await checkPage(page, 'forms-confirm-removal');
    await confirm.getByRole('button', { name: 'Remove and save' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();

    const { token } = await bed.t.key(companyId);
    const answer = await bed.t.get(token, `/v1/responses/${response.id}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.answers).toEqual({ [question.id]: soup });
    const detail = await bed.t.get(token, `/v1/forms/${id}`);
    expect(detail.json().data.content.sections[0].questions[0]).toMatchObject({ id: question.id, name: 'Your favourite meal', options: [{ id: question.options![1].id, name: 'Rice' }] });
    await context.close();
  }, 240_000);

  it('shows a member without "forms" the list but not the builder', async () => {
    const { context, page, companyId } = await signIn(['responses']);
    const { id } = await importForm(bed.t.ctx.db, bed.t.ctx, { companyId, rawJson: { slug: 'locked', name: 'Locked', sections: [{ key: 's', name: 'S', questions: [] }] } });
    await page.goto(`${bed.origin}/panel/forms`);
    await page.getByText('locked', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'New form' }).count()).toBe(0);
    await page.goto(`${bed.origin}/panel/forms/${id}`);
    await page.getByRole('heading', { name: 'You do not have permission to see this' }).waitFor();
    await checkPage(page, 'forms-builder-forbidden');
    const status = await page.evaluate(async (formId) => (await fetch(`/panel/api/forms/${formId}`)).status, id);
    expect(status).toBe(403);
    await context.close();
  }, 240_000);
});
