import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { cookiesOf, createInvite, createSteppedForm, follow, STEPPED_TRANSLATIONS } from '../../../../test/respondent-pages.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());


const urlencoded = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const post = (url: string, fields: Record<string, string>, cookie: string) =>
  t.app.inject({ method: 'POST', url, payload: urlencoded(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie } });
const switchOf = (body: string) => /<nav class="langs"[^]*?<\/nav>/.exec(body)?.[0];

describe('a form offering several languages', () => {
  it('a public link: Accept-Language among the offered languages, else the form own; the switch names the others; lang and every text agree', async () => {
    const { company } = await t.tenant();
    await createSteppedForm(t, company.id, { translations: STEPPED_TRANSLATIONS, thankYou: 'Thanks for your answers!' });
    const url = `/f/${company.slug}/stepped`;

    const portuguese = await t.app.inject({ url, headers: { 'accept-language': 'pt-BR,pt;q=0.9' } });
    expect(portuguese.body).toContain('<html lang="pt-BR">');
    expect(portuguese.body).toContain('<title>Avaliação do período</title>');
    for (const text of ['<h2>Sobre você</h2>', 'Onde você estuda?', 'Campus Norte', 'A distância', 'Etapa 1 de 3', 'Avançar']) expect(portuguese.body).toContain(text);
    for (const text of ['Where do you study?', 'North campus', 'Term feedback']) expect(portuguese.body).not.toContain(text);
    // Spanish is incomplete: not offered
    expect(switchOf(portuguese.body)).toBe(
      '<nav class="langs" aria-label="Idioma"><ul><li><a href="/f/' + company.slug + '/stepped?lang=en" lang="en" hreflang="en">English</a></li><li><span lang="pt-BR" aria-current="page">Português</span></li></ul></nav>',
    );

    // a browser asking for a language the form does not offer gets the form's own (not the chrome of another)
    const spanish = await t.app.inject({ url, headers: { 'accept-language': 'es' } });
    expect(spanish.body).toContain('<html lang="en">');
    expect(spanish.body).toContain('Where do you study?');
    expect(spanish.body).toContain('Step 1 of 3');
    expect(switchOf(spanish.body)).toContain('href="/f/' + company.slug + '/stepped?lang=pt-BR" lang="pt-BR" hreflang="pt-BR">Português</a>');
  });

  it('the switch choice (?lang=) is kept in a cookie of the link: across sections, sections sent back, reloads and the thank-you page', async () => {
    const { company } = await t.tenant();
    const { q, option } = await createSteppedForm(t, company.id, { translations: STEPPED_TRANSLATIONS, thankYou: 'Thanks for your answers!' });
    const url = `/f/${company.slug}/stepped`;

    // the prefill of the link is kept by the switch's links
    const english = await t.app.inject({ url: `${url}?name=Ana`, headers: { 'accept-language': 'en' } });
    expect(switchOf(english.body)).toContain(`href="${url}?name=Ana&amp;lang=pt-BR"`);
    const chosen = await t.app.inject({ url: `${url}?name=Ana&lang=pt-BR`, headers: { 'accept-language': 'en' } });
    expect(chosen.body).toContain('<html lang="pt-BR">');
    expect(String(chosen.headers['set-cookie'])).toMatch(new RegExp(`^quorum_lang=pt-BR; Max-Age=2592000; Path=${url}; HttpOnly; SameSite=Lax$`));
    const cookie = cookiesOf(chosen);
    const token = /name="_token" value="([^"]+)"/.exec(chosen.body)![1];

    // sent back in Portuguese, chrome and error messages included
    const empty = await post(url, { _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next', _token: token }, cookie);
    const sentBack = await t.app.inject({ url, headers: { cookie: `${cookie}; ${cookiesOf(empty)}`, 'accept-language': 'en' } });
    expect(sentBack.statusCode).toBe(422);
    expect(sentBack.body).toContain('<html lang="pt-BR">');
    expect(sentBack.body).toContain('Responda esta pergunta.');

    const next = await post(url, { _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next', _token: token, [`q.${q('campus')}`]: option('campus', 'north'), [`q.${q('attended')}`]: 'true' }, cookie);
    const pageCookie = `${cookie}; ${cookiesOf(next)}`;
    const course = await t.app.inject({ url, headers: { cookie: pageCookie, 'accept-language': 'en' } });
    expect(course.body).toContain('<html lang="pt-BR">');
    // piping in a translated text reads the answer in the same language
    expect(course.body).toContain('<h2>O curso (Campus Norte)</h2>');
    for (const text of ['Ordene os temas', 'Laboratórios', 'Clareza', 'Excelente', 'Etapa 2 de 2', 'Enviar respostas']) expect(course.body).toContain(text);

    const reload = await t.app.inject({ url, headers: { cookie: pageCookie } });
    expect(reload.body).toContain('<h2>O curso (Campus Norte)</h2>');

    // a public page carries the answers so far (it has no draft)
    const answers = /name="_answers" value="([^"]+)"/.exec(course.body)![1].replaceAll('&quot;', '"');
    const submit = await post(url, { _section: '2', _shown: [q('overall'), q('topics'), q('teacher'), q('comment')].join(','), _action: 'next', _token: token, _answers: answers, [`q.${q('overall')}`]: '4' }, pageCookie);
    expect(submit.headers.location).toBe(`${url}/thanks`);
    const thanks = await t.app.inject({ url: `${url}/thanks`, headers: { cookie, 'accept-language': 'en' } });
    expect(thanks.body).toContain('<html lang="pt-BR">');
    expect(thanks.body).toContain('Obrigado pelas respostas!');
    expect(switchOf(thanks.body)).toContain(`href="${url}/thanks?lang=en"`);

    // a language the form does not offer is ignored, and nothing is kept
    const unknown = await t.app.inject({ url: `${url}?lang=es`, headers: { 'accept-language': 'en' } });
    expect(unknown.body).toContain('<html lang="en">');
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });

  it('a personal link keeps the choice for its own path, its draft and reloads in that language', async () => {
    const { company, token } = await t.tenant();
    const { form, q } = await createSteppedForm(t, company.id, { translations: STEPPED_TRANSLATIONS, thankYou: 'Thanks for your answers!' });
    const invite = await createInvite(t, token, form.id);
    const url = `/i/${invite.token}`;
    const chosen = await t.app.inject({ url: `${url}?lang=pt-BR` });
    expect(chosen.body).toContain('<html lang="pt-BR">');
    expect(String(chosen.headers['set-cookie'])).toContain(`Path=${url};`);
    const cookie = cookiesOf(chosen);
    const sentBack = await follow(t, await post(url, { _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next' }, cookie));
    // follow sends only the page's cookie: the language cookie travels as the browser sends it
    expect(sentBack.body).toContain('<html lang="en">');
    const withChoice = await t.app.inject({ url, headers: { cookie: `${cookie}; ${cookiesOf(sentBack)}` } });
    expect(withChoice.body).toContain('<html lang="pt-BR">');
    expect(withChoice.body).toContain('Onde você estuda?');
  });

  it('a form of one language shows no switch, whatever the query asks', async () => {
    const { company } = await t.tenant();
    await createSteppedForm(t, company.id);
    const page = await t.app.inject({ url: `/f/${company.slug}/stepped?lang=pt-BR`, headers: { 'accept-language': 'pt-BR' } });
    expect(page.body).toContain('<html lang="en">');
    expect(switchOf(page.body)).toBeUndefined();
    expect(page.headers['set-cookie']).toBeUndefined();
  });
});
