import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser, type PanelClient, type PanelSignIn } from '../../../test/panel.js';
import { exportForm } from './export-form.js';
import { findForm } from './find-form.js';
import { importForm } from './import-form.js';

let t: TestApp;
let tenant: Awaited<ReturnType<TestApp['tenant']>>;
let editor: PanelSignIn & { client: PanelClient };
beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.tenant();
  editor = await signInPanelUser(t, { companyId: tenant.company.id, permissions: ['forms'] });
});
afterAll(async () => t?.close());

/** A form in English with pt-BR complete and es lacking the option texts (kept, not offered). */
const bilingual = (slug: string) => ({
  slug,
  name: 'Campus survey',
  settings: { language: 'en' },
  sections: [
    { key: 'main', name: 'Main', questions: [{ key: 'campus', name: 'Campus', type: 'RADIO', options: [{ key: 'N', name: 'North' }, { key: 'S', name: 'South' }] }] },
  ],
  translations: {
    'pt-BR': { name: 'Pesquisa do campus', sections: { main: { name: 'Principal' } }, questions: { campus: { name: 'Campus', options: { N: 'Norte', S: 'Sul' } } } },
    es: { name: 'Encuesta del campus', sections: { main: { name: 'Principal' } }, questions: { campus: { name: 'Campus' } } },
  },
});

describe('form translations through the API', () => {
  it('GET /v1/forms/{id} lists the offered languages and the content in each, same ids, as the OpenAPI document says', async () => {
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, rawJson: bilingual('bilingual') });
    const res = await t.get(tenant.token, `/v1/forms/${id}`);
    expect(res.statusCode).toBe(200);
    const detail = res.json().data;
    expect(detail.languages).toEqual(['en', 'pt-BR']);
    expect(Object.keys(detail.translations)).toEqual(['pt-BR']);
    const own = detail.content.sections[0].questions[0];
    const pt = detail.translations['pt-BR'];
    expect(pt.name).toBe('Pesquisa do campus');
    expect(pt.content.sections[0]).toMatchObject({ id: detail.content.sections[0].id, name: 'Principal' });
    expect(pt.content.sections[0].questions[0].options).toEqual(own.options.map((o: { id: string; order: number }, i: number) => ({ id: o.id, order: o.order, name: ['Norte', 'Sul'][i] })));

    // a form of one language carries neither field (the spec's shape)
    const { id: plain } = await importForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, rawJson: { ...bilingual('plain'), translations: undefined } });
    expect(Object.keys((await t.get(tenant.token, `/v1/forms/${plain}`)).json().data)).toEqual(['id', 'name', 'content']);
  });

  it('round-trips the translations through export and import, ids and content unchanged', async () => {
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, rawJson: bilingual('round-trip') });
    const before = (await findForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, id }))!;
    const exported = await exportForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, idOrSlug: id });
    expect(exported.translations).toEqual(bilingual('round-trip').translations);
    const again = await importForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, rawJson: JSON.parse(JSON.stringify(exported)) });
    expect(again.status).toBe('unchanged');
    expect((await findForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, id }))!.content).toEqual(before.content);
  });

  it('the panel saves a translation as a new version, and refuses a bad language, an unknown key or a too long text on its path', async () => {
    const created = (await editor.client.post(editor, '/panel/api/forms', { name: 'Campus survey', slug: 'versions' })).json().data;
    const url = `/panel/api/forms/${created.form.id}`;
    const first = await editor.client.put(editor, url, { definition: bilingual('versions') });
    expect(first.statusCode, first.body).toBe(200);
    const saved = first.json().data.detail.definition;
    expect(saved.translations).toEqual(bilingual('versions').translations);

    const fixed = structuredClone(saved);
    fixed.translations.es.questions.campus.options = { N: 'Norte', S: 'Sur' };
    const second = await editor.client.put(editor, url, { definition: fixed });
    expect(second.json().data.status).toBe('updated');
    const versions = (await editor.client.get(editor, `${url}/versions`)).json().data;
    expect(versions[0].changes).toEqual({ added: [], removed: [], changed: ['translations.es'] });
    expect((await t.get(tenant.token, `/v1/forms/${created.form.id}`)).json().data.languages).toEqual(['en', 'pt-BR', 'es']);

    const bad = structuredClone(fixed);
    bad.translations.fr = { name: 'Enquête' };
    bad.translations.es.questions.campus.options.W = 'Oeste';
    bad.translations['pt-BR'].name = 'x'.repeat(201);
    const refused = await editor.client.put(editor, url, { definition: bad });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.fields.map(({ path, code }: { path: string; code: string }) => ({ path, code }))).toEqual(expect.arrayContaining([
      { path: 'translations.fr', code: 'invalid_value' },
      { path: 'translations.es.questions.campus.options.W', code: 'unknown_reference' },
      { path: 'translations.pt-BR.name', code: 'too_long' },
    ]));
    const stored = await exportForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, idOrSlug: created.form.id });
    expect(stored.translations).toEqual(fixed.translations);
  });
});
