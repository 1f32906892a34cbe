/**
 * Piping and hidden fields (issue 29 item 4) through the pages without JavaScript and the API:
 * earlier answers, the respondent's name and the invite's dims (an entity by its name) in later
 * section texts, escaped, in the page's language; unknown references refused when the form is
 * saved; the public link's declared hidden fields stored as dims, undeclared ones ignored,
 * over-long ones cut to 200 characters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { pipedForm } from '../../../../test/piped-form.js';
import { createInvite, follow, idsByKey } from '../../../../test/respondent-pages.js';
import { ApiError } from '../../../lib/errors.js';
import { importEntityFile } from '../../entities/index.js';
import { exportForm } from '../../forms/export-form.js';
import { findForm } from '../../forms/find-form.js';
import { importForm } from '../../forms/import-form.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());

const urlencoded = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const post = (url: string, fields: Record<string, string>, cookie?: string) =>
  t.app.inject({ method: 'POST', url, payload: urlencoded(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) } });

describe('piping on the personal link, without JavaScript', () => {
  it('fills the later section with earlier answers, the escaped name and the course name, in pt-BR', async () => {
    const { company, token } = await t.tenant();
    await importEntityFile(t.ctx.db, t.ctx, { companyId: company.id, text: 'kind,code,name\ncourse,HIST101,História <Antiga>\n', format: 'csv' });
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: pipedForm('piped') });
    const { q, option } = idsByKey((await findForm(t.ctx.db, t.ctx, { companyId: company.id, id }))!);
    const invite = await createInvite(t, token, id, { name: 'Ana <script>alert(1)</script>', email: 'ana@school.test', dims: { course: 'HIST101' } });
    const url = `/i/${invite.token}`;

    const first = await t.app.inject({ url });
    expect(first.body).toContain('<html lang="pt-BR">');
    const step = await post(url, { _section: '0', _shown: [q('campus'), q('attended'), q('hours')].join(','), _action: 'next', [`q.${q('campus')}`]: option('campus', 'north'), [`q.${q('attended')}`]: 'true', [`q.${q('hours')}`]: '1234.5' });
    const second = await follow(t, step);
    expect(second.statusCode).toBe(200);
    expect(second.body).toContain('Sobre História &lt;Antiga&gt;');
    expect(second.body).toContain('Olá, Ana &lt;script&gt;alert(1)&lt;/script&gt;!');
    expect(second.body).not.toContain('<script>alert(1)');
    expect(second.body).toContain('Por que Norte &amp; &lt;Sul&gt;? Frequentou: Sim, 1.234,5 horas.');
    expect(second.body).not.toContain('{{');
  });
});

describe('piping settings in the form definition', () => {
  const refusal = async (raw: unknown) => {
    const { company } = await t.tenant();
    const error = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: raw }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    return ((error as ApiError).details as { fields: { path: string; code: string; message: string }[] }).fields.map((f) => `${f.path} ${f.code}`);
  };
  const withSecond = (second: Record<string, unknown>) => {
    const form = pipedForm('refused');
    return { ...form, sections: [form.sections[0], { ...form.sections[1], ...second }] };
  };

  it('refuses an unknown reference, an undeclared dim, a question not in an earlier section, and names the field', async () => {
    expect(await refusal(withSecond({ name: 'Hi {{respondent.email}}' }))).toEqual(['sections[1].name unknown_reference']);
    expect(await refusal(withSecond({ description: 'For {{dims.teacher}}' }))).toEqual(['sections[1].description unknown_reference']);
    expect(await refusal(withSecond({ name: 'About {{answer.nope}}' }))).toEqual(['sections[1].name unknown_reference']);
    const sameSection = { questions: [{ key: 'a', name: 'A', type: 'TEXT' }, { key: 'b', name: 'You said {{answer.a}}', type: 'TEXT' }] };
    expect(await refusal(withSecond(sameSection))).toEqual(['sections[1].questions[1].name invalid_reference']);
  });

  it('exports hidden fields as written, not as dims, so a re-import keeps them', async () => {
    const { company } = await t.tenant();
    const raw = pipedForm('round-trip', { hiddenFields: ['source'] });
    await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: raw });
    const exported = await exportForm(t.ctx.db, t.ctx, { companyId: company.id, idOrSlug: 'round-trip' });
    expect(exported.hiddenFields).toEqual(['source']);
    expect(exported.dims.map((dim) => dim.key)).toEqual(['course']);
    await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: exported });
  });

  it('refuses hidden fields that clash with a dim, a reserved query name, or one another', async () => {
    expect(await refusal(pipedForm('hidden', { hiddenFields: ['course', 'name', 'utm', 'utm'] }))).toEqual([
      'hiddenFields[0] not_unique',
      'hiddenFields[1] invalid_value',
      'hiddenFields[3] not_unique',
    ]);
  });
});

describe('hidden fields of the public link', () => {
  it('stores the declared ones as dims, ignores the others, cuts a long one to 200 characters, and pipes them and the prefilled name', async () => {
    const { company, token } = await t.tenant();
    const raw = {
      slug: 'tagged',
      name: 'Tagged',
      settings: { isPublic: true, language: 'en' },
      hiddenFields: ['source', 'campaign'],
      sections: [
        { key: 'one', name: 'One', questions: [{ key: 'like', name: 'Do you like it?', type: 'BOOLEAN', mandatory: true }] },
        { key: 'two', name: 'From {{dims.source}}', description: 'Thanks {{respondent.name}}', questions: [{ key: 'more', name: 'You said {{answer.like}}', type: 'TEXT' }] },
      ],
    };
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: raw });
    const { q } = idsByKey((await findForm(t.ctx.db, t.ctx, { companyId: company.id, id }))!);
    const link = `/f/${company.slug}/tagged`;
    const long = 'x'.repeat(250);
    const page = await t.app.inject({ url: `${link}?source=%3Cb%3Enewsletter%3C%2Fb%3E&campaign=${long}&medium=mail&name=Rui%20%3Ci%3E` });
    expect(page.statusCode).toBe(200);
    const pageToken = /name="_token" value="([^"]+)"/.exec(page.body)![1];
    const step = await post(link, { _token: pageToken, _section: '0', _shown: q('like'), _action: 'next', _answers: '{}', [`q.${q('like')}`]: 'false' });
    const second = await follow(t, step);
    expect(second.body).toContain('From &lt;b&gt;newsletter&lt;/b&gt;');
    expect(second.body).toContain('Thanks Rui &lt;i&gt;');
    expect(second.body).toContain('You said No');
    const state = /name="_answers" value="([^"]*)"/.exec(second.body)![1].replace(/&quot;/g, '"');
    const done = await post(link, { _token: pageToken, _section: '1', _shown: q('more'), _action: 'next', _answers: state });
    expect(done.headers.location).toBe(`${link}/thanks`);

    const list = await t.get(token, `/v1/forms/${id}/responses`);
    const record = (await t.get(token, `/v1/responses/${list.json().data[0].id}`)).json().data;
    expect(record.dims).toEqual({ source: '<b>newsletter</b>', campaign: 'x'.repeat(200) });
    expect(record.respondent).toMatchObject({ name: 'Rui <i>' });

    // through the respondent API a hidden field is a dim like any other: too long is refused, not cut
    const api = await t.app.inject({ method: 'POST', url: `/r/v1/forms/${company.slug}/tagged/responses`, payload: { answers: { [q('like')]: true }, dims: { campaign: long } } });
    expect(api.statusCode).toBe(400);
    expect(api.json().error.details.fields).toEqual([expect.objectContaining({ path: 'dims.campaign' })]);
  });
});
