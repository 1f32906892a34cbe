/**
 * The builder's live preview through /panel/api: the unsaved definition rendered by the respondent
 * pages' renderer (the public link's page, token aside), nothing stored, CSRF and permission enforced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { signInPanelUser, type PanelClient, type PanelSignIn } from '../../../../test/panel.js';
import { importForm } from '../../forms/index.js';

let t: TestApp;
let tenant: Awaited<ReturnType<TestApp['tenant']>>;
let editor: PanelSignIn;
let panel: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.tenant();
  const signed = await signInPanelUser(t, { companyId: tenant.company.id, permissions: ['forms', 'responses'] });
  editor = signed;
  panel = signed.client;
});
afterAll(async () => t?.close());

const DEFINITION = {
  slug: 'preview-me',
  name: 'Preview <me> & "you"',
  settings: { isPublic: true, language: 'pt-BR' },
  sections: [
    {
      key: 'first',
      name: 'First <b>part</b>',
      questions: [
        { key: 'campus', name: 'Campus', type: 'RADIO', mandatory: true, options: [{ key: 'NORTH', name: 'North' }, { key: 'SOUTH', name: '<img src=x onerror=alert(1)>' }] },
        { key: 'why', name: 'Why north?', type: 'TEXT', visibleIf: { question: 'campus', equals: 'NORTH' } },
        { key: 'grid', name: 'Grid', type: 'MATRIX', rows: [{ key: 'r1', name: 'Row' }], columns: [{ key: 'c1', name: 'Col' }] },
      ],
    },
    { key: 'second', name: 'Second part', questions: [{ key: 'more', name: 'Anything else?', type: 'PARAGRAPH' }] },
  ],
};

/** The form, imported (or found unchanged) by its slug. */
async function savedForm() {
  const { id } = await importForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, rawJson: DEFINITION });
  const detail = (await panel.get(editor, `/panel/api/forms/${id}`)).json().data;
  return { id, definition: detail.definition };
}

/** The one difference the preview has by design: no submission token (so it can submit nothing). */
/** The public page less what only a page that can be submitted has: its token and its "save and continue later". */
const withoutToken = (html: string) =>
  html.replace(/<input type="hidden" name="_token" value="[^"]*">/, '').replace(/\n<div class="later"><button type="submit" name="_action" value="save" class="secondary">[^<]*<\/button><\/div>/, '');

const RULES = /data-rules="([^"]*)"/;
const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
/**
 * The page with its conditions (the script's data-rules) read as JSON: a stored form comes back
 * from jsonb with its keys reordered, an unsaved one does not; the rules themselves must match.
 */
const readPage = (html: string) => ({ page: html.replace(RULES, 'data-rules=""'), rules: JSON.parse(unescape(RULES.exec(html)?.[1] ?? 'null')) });

describe('form preview', () => {
  it('renders a saved form exactly as its public link does, token aside, and escapes every text', async () => {
    const { id, definition } = await savedForm();
    const headers = { 'accept-language': 'es' };
    const preview = await panel.post(editor, `/panel/api/forms/${id}/preview`, { definition }, { headers });
    expect(preview.statusCode, preview.body).toBe(200);
    const { html, sectionIndex, sections } = preview.json().data;
    expect(sectionIndex).toBe(0);
    expect(sections).toEqual([{ key: 'first', name: 'First <b>part</b>' }, { key: 'second', name: 'Second part' }]);

    const page = await t.app.inject({ method: 'GET', url: `/f/${tenant.company.slug}/preview-me`, headers });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/name="_token" value="[^"]+"/);
    expect(html).not.toContain('name="_token"');
    expect(html).not.toContain('value="save"');
    expect(readPage(html)).toEqual(readPage(withoutToken(page.body)));
    expect(readPage(html).rules.sections).toHaveLength(2);

    expect(html).toContain('Preview &lt;me&gt; &amp; &quot;you&quot;');
    expect(html).toContain('First &lt;b&gt;part&lt;/b&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    expect(html).toContain('lang="pt-BR"');
  });

  it('renders unsaved changes and another section, and stores nothing', async () => {
    const { id, definition } = await savedForm();
    const before = (await t.ctx.pool.query('SELECT content, updated_at, (SELECT count(*) FROM form_versions WHERE form_id = $1) AS versions FROM forms WHERE id = $1', [id])).rows[0];
    const edited = structuredClone(definition);
    edited.name = 'Renamed, unsaved';
    edited.sections[1].questions.push({ key: 'added', name: 'A question not yet saved', type: 'TEXT' });
    const preview = await panel.post(editor, `/panel/api/forms/${id}/preview`, { definition: edited, sectionIndex: 1 });
    expect(preview.statusCode, preview.body).toBe(200);
    const { html, sectionIndex } = preview.json().data;
    expect(sectionIndex).toBe(1);
    expect(html).toContain('<h1>Renamed, unsaved</h1>');
    expect(html).toContain('<h2>Second part</h2>');
    expect(html).toContain('A question not yet saved');
    const after = (await t.ctx.pool.query('SELECT content, updated_at, (SELECT count(*) FROM form_versions WHERE form_id = $1) AS versions FROM forms WHERE id = $1', [id])).rows[0];
    expect(after).toEqual(before);
  });

  it('shows the last section for a sectionIndex past it, as its OpenAPI description says, and refuses one past the bound in the envelope', async () => {
    const { id, definition } = await savedForm();
    const url = `/panel/api/forms/${id}/preview`;
    for (const sectionIndex of [2, 9, 10_000]) {
      const res = await panel.post(editor, url, { definition, sectionIndex });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.sectionIndex).toBe(1);
      expect(res.json().data.html).toContain('<h2>Second part</h2>');
    }
    const tooFar = await panel.post(editor, url, { definition, sectionIndex: 10_001 });
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ path: 'sectionIndex' })] } });

    const openapi = (await t.app.inject({ method: 'GET', url: '/panel/api/openapi.json' })).json();
    const body = openapi.paths['/forms/{id}/preview'].post.requestBody.content['application/json'].schema;
    expect(body.properties.sectionIndex).toMatchObject({ minimum: 0, maximum: 10_000 });
    expect(body.properties.sectionIndex.description).toContain('past the last: the last');
  });

  it('shows piping references as written, for the author to read (a respondent sees them filled in)', async () => {
    const { id, definition } = await savedForm();
    const edited = structuredClone(definition);
    edited.sections[1].name = 'After {{answer.campus}}';
    const preview = await panel.post(editor, `/panel/api/forms/${id}/preview`, { definition: edited, sectionIndex: 1 });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data.html).toContain('<h2>After {{answer.campus}}</h2>');
  });

  it('reports an invalid definition by field, like a save', async () => {
    const { id, definition } = await savedForm();
    const broken = structuredClone(definition);
    broken.sections[0].questions[0].type = 'NOT_A_TYPE';
    const res = await panel.post(editor, `/panel/api/forms/${id}/preview`, { definition: broken });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.details.fields.map((f: { path: string }) => f.path)).toContain('sections[0].questions[0].type');
    const tooFar = await panel.post(editor, `/panel/api/forms/${id}/preview`, { definition, sectionIndex: -1 });
    expect(tooFar.statusCode).toBe(400);
  });

  it('refuses without CSRF, without the forms permission, and hides other companies\' forms', async () => {
    const { id, definition } = await savedForm();
    const url = `/panel/api/forms/${id}/preview`;
    expect((await panel.post(editor, url, { definition }, { csrf: false })).statusCode).toBe(403);
    expect((await panel.post(editor, url, { definition }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await panel.post(null, url, { definition })).statusCode).toBe(401);

    const reader = await signInPanelUser(t, { companyId: tenant.company.id, permissions: ['responses'] });
    const refused = await reader.client.post(reader, url, { definition });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');

    const other = await t.tenant();
    const stranger = await signInPanelUser(t, { companyId: other.company.id, permissions: ['forms'] });
    const hidden = await stranger.client.post(stranger, url, { definition });
    expect(hidden.statusCode).toBe(404);
  });
});
