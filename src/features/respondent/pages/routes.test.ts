import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { createInvite, createSteppedForm, follow, idsByKey, openState, walkedAnswers } from '../../../../test/respondent-pages.js';
import { findForm } from '../../forms/find-form.js';
import { RESPONDENT_REQUESTS_PER_MIN } from '../../../platform/app/address-budget.js';
import { importForm } from '../../forms/import-form.js';
import { pruneUploads } from '../prune-uploads.job.js';
import { readFileSync } from 'node:fs';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());

const form = (fields: Record<string, string | string[]>) =>
  new URLSearchParams(Object.entries(fields).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString();
const post = (url: string, fields: Record<string, string | string[]>) =>
  t.app.inject({ method: 'POST', url, payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
/** The public page's submission token, as its form carries it. */
const pageToken = (body: string) => /name="_token" value="([^"]+)"/.exec(body)![1];

describe('personal link without JavaScript', () => {
  it('walks the sections: errors tied to fields, a question revealed in its section, a section shown by an answer, submit then thank-you', async () => {
    const { company, token } = await t.tenant();
    const { form, q, option } = await createSteppedForm(t, company.id);
    const invite = await createInvite(t, token, form.id);
    const url = `/i/${invite.token}`;

    const first = await t.app.inject({ url });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(first.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    expect(first.body).toContain('<html lang="en">');
    expect(first.body).toContain('Step 1 of 3'); // the online section may still come
    expect(first.body).toContain('<progress max="100" value="0" aria-labelledby="step">0%</progress>');
    expect(first.body).toMatch(new RegExp(`<div class="q" id="q-${q('missed')}" data-q="${q('missed')}" hidden>`));

    const sentBack = await post(url, { _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next' });
    expect(sentBack.statusCode).toBe(303);
    expect(sentBack.headers.location).toBe(url);
    const empty = await follow(t, sentBack);
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain(`aria-describedby="e-${q('campus')}"`);
    expect(empty.body).toContain(`<p class="err" id="e-${q('campus')}">Please answer this question.</p>`);
    expect(empty.body).toContain(`<a href="#f-${q('campus')}">`);

    // "No" reveals the mandatory "missed" in the same section: shown before moving on
    const reveal = await post(url, { _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next', [`q.${q('campus')}`]: option('campus', 'online'), [`q.${q('attended')}`]: 'false' });
    expect(reveal.statusCode).toBe(303);
    const again = await t.app.inject({ url });
    expect(again.body).toMatch(new RegExp(`<div class="q" id="q-${q('missed')}" data-q="${q('missed')}">`));
    expect(again.body).toContain('Step 1 of 3');

    const tooMany = await follow(t, await post(url, { _section: '0', _shown: `${q('campus')},${q('attended')},${q('missed')}`, _action: 'next', [`q.${q('campus')}`]: option('campus', 'online'), [`q.${q('attended')}`]: 'false', [`q.${q('missed')}`]: '500' }));
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.body).toContain('value="500"');
    expect(tooMany.body).toContain('This number is too large.');

    const toOnline = await post(url, { _section: '0', _shown: `${q('campus')},${q('attended')},${q('missed')}`, _action: 'next', [`q.${q('campus')}`]: option('campus', 'online'), [`q.${q('attended')}`]: 'false', [`q.${q('missed')}`]: '3' });
    expect(toOnline.statusCode).toBe(303);
    expect((await t.app.inject({ url })).body).toContain('Online experience');
    await post(url, { _section: '1', _shown: q('platform'), _action: 'next', [`q.${q('platform')}`]: 'Moodle' });

    const last = await t.app.inject({ url });
    expect(last.body).toContain('Step 3 of 3');
    expect(last.body).toContain('Send answers');
    const submit = await post(url, {
      _section: '2',
      _shown: [q('overall'), q('topics'), q('teacher'), q('comment')].join(','),
      _action: 'next',
      [`q.${q('overall')}`]: '4',
      [`q.${q('topics')}.${option('topics', 'theory')}`]: '3',
      [`q.${q('topics')}.${option('topics', 'labs')}`]: '1',
      [`q.${q('topics')}.${option('topics', 'projects')}`]: '2',
      [`q.${q('teacher')}.${option('teacher', 'clarity')}`]: option('teacher', 'good'),
      [`q.${q('comment')}`]: 'Line one\r\nline <two>',
    });
    expect(submit.statusCode).toBe(303);
    expect(submit.headers.location).toBe(`${url}/thanks`);
    const thanks = await t.app.inject({ url: `${url}/thanks` });
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Thank you');

    const { rows } = await t.ctx.db.execute<{ answers: Record<string, unknown> }>(sql`SELECT answers FROM responses WHERE form_id = ${form.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0].answers).toEqual({ ...walkedAnswers({ q, option }), [q('comment')]: 'Line one\nline <two>' });
    const answered = await t.app.inject({ url });
    expect(answered.statusCode).toBe(200);
    expect(answered.body).toContain('Already answered');
  });

  it('going back keeps the answers; a hidden answer is dropped when the condition changes', async () => {
    const { company, token } = await t.tenant();
    const { form, q, option } = await createSteppedForm(t, company.id);
    const invite = await createInvite(t, token, form.id);
    const url = `/i/${invite.token}`;
    const base = { _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next', [`q.${q('attended')}`]: 'true' };
    await post(url, { ...base, [`q.${q('campus')}`]: option('campus', 'online') });
    await post(url, { _section: '1', _shown: q('platform'), _action: 'back', [`q.${q('platform')}`]: 'Teams' });
    const page = await t.app.inject({ url });
    expect(page.body).toContain('Step 1 of 3');
    expect(page.body).toMatch(new RegExp(`value="${option('campus', 'online')}" checked`));
    await post(url, { ...base, [`q.${q('campus')}`]: option('campus', 'north') });
    expect((await t.app.inject({ url })).body).toContain('The course');
    const { rows } = await t.ctx.db.execute<{ answers: Record<string, unknown> }>(sql`SELECT answers FROM invite_drafts WHERE invite_id = ${invite.id}`);
    expect(rows[0].answers).toEqual({ [q('campus')]: option('campus', 'north'), [q('attended')]: true });
  });
});

describe('Post/Redirect/Get', () => {
  /** The positions each ranking select of the page shows as chosen, by option id. */
  const rankShown = (body: string, questionId: string) =>
    Object.fromEntries([...body.matchAll(new RegExp(`<select id="f-${questionId}-([^"]+)"[^>]*>(.*?)</select>`, 'g'))].map((m) => [m[1], /<option value="(\d+)" selected>/.exec(m[2])?.[1] ?? '']));

  it('a section sent back keeps every typed value (a broken ranking too) for the GET, named by a cookie, never in the URL; reload shows it again; the next step forgets it', async () => {
    const { company, token } = await t.tenant();
    const { form: stepped, q, option } = await createSteppedForm(t, company.id);
    const invite = await createInvite(t, token, stepped.id);
    const url = `/i/${invite.token}`;
    await post(url, { _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next', [`q.${q('campus')}`]: option('campus', 'north'), [`q.${q('attended')}`]: 'true' });
    const last = [q('overall'), q('topics'), q('teacher'), q('comment')].join(',');
    const broken = {
      _section: '2',
      _shown: last,
      _action: 'next',
      [`q.${q('topics')}.${option('topics', 'theory')}`]: '2',
      [`q.${q('topics')}.${option('topics', 'labs')}`]: '2',
      [`q.${q('topics')}.${option('topics', 'projects')}`]: '1',
      [`q.${q('comment')}`]: 'Kept <as typed>',
    };
    const res = await post(url, broken);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(url);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^quorum_page=[\\w-]{43}; Max-Age=3600; Path=${url}; HttpOnly; SameSite=Lax$`));
    expect(res.body).toBe('');

    const shown = await follow(t, res);
    expect(shown.statusCode).toBe(422);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.body).toContain(`<p class="err" id="e-${q('overall')}">Please answer this question.</p>`);
    expect(shown.body).toContain(`<p class="err" id="e-${q('topics')}">`);
    expect(rankShown(shown.body, q('topics'))).toEqual({ [option('topics', 'projects')]: '1', [option('topics', 'theory')]: '2', [option('topics', 'labs')]: '2' });
    expect(shown.body).toContain('Kept &lt;as typed&gt;</textarea>');
    // a reload (the same GET) shows the same; another browser, or none, sees the draft without errors
    const reload = await t.app.inject({ url, headers: { cookie: cookie.split(';')[0] } });
    expect(reload.body).toBe(shown.body);
    const elsewhere = await t.app.inject({ url, headers: { cookie: `quorum_page=${'x'.repeat(43)}` } });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.body).not.toContain('class="summary"');
    expect(elsewhere.body).toContain('Kept &lt;as typed&gt;</textarea>'); // a fitting answer is in the draft
    // the key names nothing on another link
    const other = await createInvite(t, token, stepped.id, { name: 'Bia', email: 'bia@school.test' });
    expect((await t.app.inject({ url: `/i/${other.token}`, headers: { cookie: cookie.split(';')[0] } })).statusCode).toBe(200);

    // the draft autosaved since (the page script) wins over the kept state
    t.clock.advance(1000);
    expect((await t.app.inject({ method: 'PUT', url: `/r/v1/invites/${invite.token}/draft`, payload: { answers: { [q('campus')]: option('campus', 'north'), [q('attended')]: true, [q('overall')]: 3 }, sectionIndex: 2 } })).statusCode).toBe(200);
    const autosaved = await t.app.inject({ url, headers: { cookie: cookie.split(';')[0] } });
    expect(autosaved.statusCode).toBe(200);
    expect(autosaved.body).not.toContain('Kept &lt;as typed&gt;');

    const done = await t.app.inject({
      method: 'POST',
      url,
      payload: form({ ...broken, [`q.${q('overall')}`]: '4', [`q.${q('topics')}.${option('topics', 'labs')}`]: '3' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie.split(';')[0] },
    });
    expect(done.headers.location).toBe(`${url}/thanks`);
    expect(String(done.headers['set-cookie'])).toMatch(/^quorum_page=; Max-Age=0; Path=/);
    const { rows } = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM respondent_page_states WHERE form_id = ${stepped.id}`);
    expect(rows[0].n).toBe(0);
  });

  it('public link: each step and each error is a 303 to the link; the GET shows the step the cookie names, a new visitor starts afresh', async () => {
    const { company } = await t.tenant();
    const { q } = await createSteppedForm(t, company.id);
    const url = `/f/${company.slug}/stepped`;
    const _token = pageToken((await t.app.inject({ url })).body);
    const wrong = await post(url, { _token, _section: '0', _shown: `${q('campus')},${q('attended')},${q('missed')}`, _action: 'next', _answers: '{}', [`q.${q('attended')}`]: 'false', [`q.${q('missed')}`]: 'many' });
    expect(wrong.headers.location).toBe(url);
    const shown = await follow(t, wrong);
    expect(shown.statusCode).toBe(422);
    expect(shown.body).toContain('value="many"');
    expect(shown.body).toContain(`<p class="err" id="e-${q('campus')}">Please answer this question.</p>`);
    expect(pageToken(shown.body)).toBe(_token);
    const fresh = await t.app.inject({ url });
    expect(fresh.statusCode).toBe(200);
    expect(pageToken(fresh.body)).not.toBe(_token);
    expect(fresh.body).not.toContain('value="many"');
  });
});

describe('the form around the questions', () => {
  const description = 'Tell us how the term went.\nIt takes <3 minutes> & stays anonymous.';

  it('a public link with a description opens on a welcome screen whose Start keeps the link\'s prefill; its head carries a preview card and the icon', async () => {
    const { company } = await t.tenant();
    const { form: stored } = await createSteppedForm(t, company.id, { slug: 'welcome', description });
    const url = `/f/${company.slug}/welcome`;
    const page = await t.app.inject({ url: `${url}?name=Rui%20Lopes&dim.cohort=2026` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<p class="intro">Tell us how the term went.\nIt takes &lt;3 minutes&gt; &amp; stays anonymous.</p>');
    expect(page.body).toContain(`<form method="get" action="${url}" id="quorum-welcome"><input type="hidden" name="name" value="Rui Lopes"><input type="hidden" name="dim.cohort" value="2026"><input type="hidden" name="start" value="1">`);
    expect(page.body).toContain('<button type="submit">Start</button>');
    expect(page.body).not.toContain('<progress');
    expect(page.body).toContain('<title>Term feedback</title>');
    expect(page.body).toContain('<meta property="og:title" content="Term feedback">');
    expect(page.body).toContain('<meta property="og:description" content="Tell us how the term went. It takes &lt;3 minutes&gt; &amp; stays anonymous.">');
    expect(page.body).toContain(`<meta property="og:site_name" content="${company.name}">`);
    expect(page.body).toContain('<meta property="og:locale" content="en">');
    const icon = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(page.body)![1];
    const served = await t.app.inject({ url: icon });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.body).toMatch(/^<svg /);
    expect((await t.app.inject({ url: '/r/assets/icon.0000000000000000.svg' })).statusCode).toBe(404);

    // Start: the first section, the prefill sealed into its token as when the link opens directly
    const first = await t.app.inject({ url: `${url}?name=Rui%20Lopes&dim.cohort=2026&start=1` });
    expect(first.body).toContain('Step 1 of 3');
    const token = /name="_token" value="([^"]+)"/.exec(first.body)![1];
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).p).toEqual({ respondent: { name: 'Rui Lopes' }, dims: { cohort: '2026' } });
    expect(stored.description).toBe(description);
  });

  it("the thank-you page says the form's own text (escaped, lines kept) on both links, else the pages' own thanks", async () => {
    const { company, token } = await t.tenant();
    const thankYou = 'Thanks <b>a lot</b>!\nResults in June.';
    const { form: stored } = await createSteppedForm(t, company.id, { slug: 'thanks-text', thankYou });
    const invite = await createInvite(t, token, stored.id);
    const url = `/i/${invite.token}`;
    await t.ctx.db.execute(sql`UPDATE invites SET status = 'responded' WHERE id = ${invite.id}`);
    const personal = await t.app.inject({ url: `${url}/thanks` });
    expect(personal.body).toContain('<h1>Thank you</h1><p class="msg">Thanks &lt;b&gt;a lot&lt;/b&gt;!\nResults in June.</p>');
    const publicThanks = await t.app.inject({ url: `/f/${company.slug}/thanks-text/thanks` });
    expect(publicThanks.body).toContain('<p class="msg">Thanks &lt;b&gt;a lot&lt;/b&gt;!\nResults in June.</p>');
    await createSteppedForm(t, company.id, { slug: 'thanks-plain' });
    expect((await t.app.inject({ url: `/f/${company.slug}/thanks-plain/thanks` })).body).toContain('<p class="msg">Your answers have been received.</p>');
    // the text is not sent to the page script with the rules
    const page = await t.app.inject({ url: `/f/${company.slug}/thanks-text` });
    expect(page.body).not.toContain('Results in June');
  });

  it('a personal link shows the welcome screen until the person starts or has a draft; it has no preview card', async () => {
    const { company, token } = await t.tenant();
    const { form: stored, q, option } = await createSteppedForm(t, company.id, { slug: 'welcome-invite', description });
    const invite = await createInvite(t, token, stored.id);
    const url = `/i/${invite.token}`;
    const page = await t.app.inject({ url, headers: { 'accept-language': 'pt-BR' } });
    expect(page.body).toContain('<html lang="en">'); // the form's language
    expect(page.body).toContain(`<form method="get" action="${url}" id="quorum-welcome" data-seen="${url}/seen"><input type="hidden" name="start" value="1">`);
    expect(page.body).not.toContain('og:');
    expect(page.body).toContain('<link rel="icon"');
    expect((await t.app.inject({ url: `${url}?start=1` })).body).toContain('Step 1 of 3');
    await post(url, { _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next', [`q.${q('campus')}`]: option('campus', 'north'), [`q.${q('attended')}`]: 'true' });
    expect((await t.app.inject({ url })).body).toContain('Step 2 of 2');
  });
});

describe('kept page states', () => {
  it("expire with the page's token: the GET then starts afresh, and the uploads sweep removes them", async () => {
    const { company } = await t.tenant();
    const { form: stored, q } = await createSteppedForm(t, company.id, { slug: 'expiring' });
    const url = `/f/${company.slug}/expiring`;
    const _token = pageToken((await t.app.inject({ url })).body);
    const res = await post(url, { _token, _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next', _answers: '{}', [`q.${q('attended')}`]: 'true' });
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    expect((await t.app.inject({ url, headers: { cookie } })).statusCode).toBe(422);
    t.clock.advance(t.ctx.config.publicLinkTokenHours * 3_600_000 + 1000);
    const later = await t.app.inject({ url, headers: { cookie } });
    expect(later.statusCode).toBe(200);
    expect(pageToken(later.body)).not.toBe(_token);
    await pruneUploads.sweep(t.ctx);
    const { rows } = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM respondent_page_states WHERE form_id = ${stored.id}`);
    expect(rows[0].n).toBe(0);
  });
});

describe('question widgets from plain controls', () => {
  const widgetForm = {
    slug: 'widgets',
    name: 'Widgets',
    settings: { isPublic: true, language: 'en' },
    sections: [
      {
        key: 's',
        name: 'All of them',
        questions: [
          { key: 'stars', name: 'Stars', type: 'STAR', max: 5 },
          { key: 'nps', name: 'Recommend', type: 'NPS' },
          { key: 'agree', name: 'Agree', type: 'RANGE', min: 1, max: 7 },
          { key: 'percent', name: 'Percent', type: 'RANGE', min: 0, max: 100, step: 0.5 },
          { key: 'count', name: 'Count', type: 'NUMBER', min: 0, step: 1 },
          { key: 'amount', name: 'Amount', type: 'NUMBER' },
          { key: 'when', name: 'When', type: 'DATETIME' },
          { key: 'order', name: 'Order', type: 'RANKING', options: [{ key: 'a', name: 'Alpha' }, { key: 'b', name: 'Beta' }] },
        ],
      },
    ],
  };

  it('stars, a one-row 0-10 scale with its ends, a segmented RANGE, digit keyboards, a zoned date-time and movable ranking rows, all posting as before', async () => {
    const { company, token } = await t.tenant();
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: widgetForm });
    const { q, option } = idsByKey((await findForm(t.ctx.db, t.ctx, { companyId: company.id, id }))!);
    const invite = await createInvite(t, token, id);
    const url = `/i/${invite.token}`;
    const page = (await t.app.inject({ url })).body;
    expect(page).toContain(`<div class="stars"><label class="opt" for="f-${q('stars')}-0"><input type="radio" id="f-${q('stars')}-0" name="q.${q('stars')}" value="1"><span class="sr">1 of 5 stars</span><span class="glyph" aria-hidden="true">★</span></label>`);
    expect(page).toMatch(new RegExp(`<div class="scale">(<label class="opt" for="f-${q('nps')}-\\d+"><input type="radio"[^>]+> <span>\\d+</span></label>){11}</div>`));
    expect(page).toContain(`<p class="ends" id="n-${q('nps')}"><span>0: not at all likely</span> <span>10: extremely likely</span></p>`);
    expect(page).toMatch(new RegExp(`aria-describedby="[^"]*n-${q('nps')}"`));
    expect(page).toMatch(new RegExp(`<div class="scale">(<label class="opt" for="f-${q('agree')}-\\d"><input type="radio" id="f-${q('agree')}-\\d" name="q.${q('agree')}" value="[1-7]"> <span>[1-7]</span></label>){7}</div>`));
    expect(page).toContain(`name="q.${q('percent')}" type="number" value="" min="0" max="100" step="0.5" inputmode="decimal"`); // 201 points: a number field
    expect(page).toContain(`name="q.${q('count')}" type="number" value="" min="0" step="1" inputmode="numeric"`);
    expect(page).toContain(`name="q.${q('amount')}" type="number" value="" step="any" inputmode="decimal"`);
    expect(page).toContain(`name="q.${q('when')}" type="datetime-local" value="" data-zoned`);
    expect(page).toContain(`<span class="moves" hidden><button type="button" class="mv" data-move="-1" aria-label="Move Alpha up">↑</button>`);

    // the script posts the instant in UTC; a field without a zone (no script) is read as UTC
    const fields = {
      _section: '0',
      _shown: ['stars', 'nps', 'agree', 'percent', 'count', 'amount', 'when', 'order'].map(q).join(','),
      _action: 'next',
      [`q.${q('stars')}`]: '4',
      [`q.${q('nps')}`]: '10',
      [`q.${q('agree')}`]: '6',
      [`q.${q('count')}`]: '3',
      [`q.${q('when')}`]: '2026-03-01T15:30:00.000Z',
      [`q.${q('order')}.${option('order', 'a')}`]: '2',
      [`q.${q('order')}.${option('order', 'b')}`]: '1',
    };
    expect((await post(url, fields)).headers.location).toBe(`${url}/thanks`);
    const { rows } = await t.ctx.db.execute<{ answers: Record<string, unknown> }>(sql`SELECT answers FROM responses WHERE form_id = ${id}`);
    expect(rows[0].answers).toEqual({ [q('stars')]: 4, [q('nps')]: 10, [q('agree')]: 6, [q('count')]: 3, [q('when')]: '2026-03-01T15:30:00.000Z', [q('order')]: [option('order', 'b'), option('order', 'a')] });

    const other = await createInvite(t, token, id, { name: 'Bia', email: 'bia@school.test' });
    const sentBack = await follow(t, await post(`/i/${other.token}`, { ...fields, [`q.${q('when')}`]: '2026-03-01T15:30', [`q.${q('agree')}`]: '9' }));
    expect(sentBack.statusCode).toBe(422);
    expect(sentBack.body).toContain(`name="q.${q('when')}" type="datetime-local" value="2026-03-01T15:30" data-zoned`);
    expect(sentBack.body).toContain('Time in UTC.');
  });
});

describe('progress', () => {
  const demo = JSON.parse(readFileSync(new URL('../../../demo/data/term-evaluation.json', import.meta.url), 'utf8')) as { sections: { questions: { key: string; rows?: { key: string }[]; columns?: { key: string }[] }[] }[] };
  const teaching = demo.sections.flatMap((s) => s.questions).find((q) => q.key === 'teaching')!;
  const shown = (body: string) => {
    const step = /Step (\d+) of (\d+)/.exec(body)!;
    return { n: Number(step[1]), total: Number(step[2]), percent: Number(/<progress max="100" value="(\d+)"/.exec(body)![1]) };
  };

  it.each([
    ['NORTH', true, 5, false],
    ['SOUTH', false, 1, false],
    ['ONLINE', true, 2, false],
    ['ONLINE', false, 5, true],
  ] as const)('never goes backwards on the demo term-evaluation (campus %s, attended %s, rating %s, connection issues %s)', async (campus, attended, rating, issues) => {
    const { company, token } = await t.tenant();
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: demo });
    const { q, option } = idsByKey((await findForm(t.ctx.db, t.ctx, { companyId: company.id, id }))!);
    const invite = await createInvite(t, token, id);
    const url = `/i/${invite.token}`;
    // what each section is answered with on this path (the mandatory ones, and the conditions' questions)
    const fields: Record<string, Record<string, string>> = {
      you: { [`q.${q('campus')}`]: option('campus', campus), [`q.${q('attended')}`]: String(attended), ...(attended ? {} : { [`q.${q('missed')}`]: '2' }) },
      course: {
        [`q.${q('rating')}`]: String(rating),
        [`q.${q('recommend')}`]: '9',
        ...Object.fromEntries(teaching.rows!.map((row) => [`q.${q('teaching')}.${option('teaching', row.key)}`, option('teaching', teaching.columns![0].key)])),
      },
      online: { [`q.${q('connectionIssues')}`]: String(issues) },
    };
    const seen: { n: number; total: number; percent: number }[] = [];
    expect((await t.app.inject({ url })).body).toContain('id="quorum-welcome"'); // the demo form has a description
    let page = await t.app.inject({ url: `${url}?start=1` });
    for (let i = 0; i < 10 && page.statusCode === 200 && page.body.includes('<progress'); i++) {
      seen.push(shown(page.body));
      const section = /name="_section" value="(\d+)"/.exec(page.body)![1];
      const sectionKey = ['you', 'course', 'online'][Number(section)];
      const questionsShown = /name="_shown" value="([^"]*)"/.exec(page.body)![1];
      const res = await post(url, { _section: section, _shown: questionsShown, _action: 'next', ...fields[sectionKey] });
      expect(res.statusCode).toBe(303);
      page = await follow(t, res);
    }
    expect(page.body).toContain('Thank you');
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].percent, JSON.stringify(seen)).toBeGreaterThanOrEqual(seen[i - 1].percent);
      expect(seen[i].total, JSON.stringify(seen)).toBeLessThanOrEqual(seen[i - 1].total);
      expect(seen[i].n, JSON.stringify(seen)).toBeGreaterThanOrEqual(seen[i - 1].n);
    }
    expect(seen[0]).toEqual({ n: 1, total: 3, percent: 0 });
    expect(seen.at(-1)!.n).toBe(seen.at(-1)!.total); // the last step says so
    // a question revealed in its own section is shown before moving on: missed, dislikes, evidence
    expect(seen.length).toBe((campus === 'ONLINE' ? 3 : 2) + (attended ? 0 : 1) + (rating <= 2 ? 1 : 0) + (issues ? 1 : 0));
  });
});

describe('public link without JavaScript', () => {
  it('carries the earlier answers in the page, seals the prefill of the link in the page, and stores the respondent from it', async () => {
    const { company } = await t.tenant();
    const { form, q, option } = await createSteppedForm(t, company.id);
    const page = await t.app.inject({ url: `/f/${company.slug}/stepped?name=Rui%20Lopes&email=rui%40school.test` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`action="/f/${company.slug}/stepped"`);
    expect(page.body).not.toContain('data-draft'); // no draft to autosave on a public link
    const _token = pageToken(page.body);
    const url = `/f/${company.slug}/stepped`;

    const stepped = await post(url, { _token, _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next', _answers: '{}', [`q.${q('campus')}`]: option('campus', 'north'), [`q.${q('attended')}`]: 'true' });
    expect(stepped.statusCode).toBe(303);
    expect(stepped.headers.location).toBe(url);
    expect(String(stepped.headers['set-cookie'])).toMatch(new RegExp(`^quorum_page=[\\w-]{43}; Max-Age=\\d+; Path=/f/${company.slug}/stepped; HttpOnly; SameSite=Lax$`));
    const second = await follow(t, stepped);
    expect(second.statusCode).toBe(200);
    expect(second.body).toContain('The course');
    const state = /name="_answers" value="([^"]*)"/.exec(second.body)![1].replace(/&quot;/g, '"');
    expect(JSON.parse(state)).toEqual({ [q('campus')]: option('campus', 'north'), [q('attended')]: true });

    expect(pageToken(second.body)).toBe(_token);
    const done = await post(url, { _token, _section: '2', _shown: [q('overall'), q('topics'), q('teacher'), q('comment')].join(','), _action: 'next', _answers: state, [`q.${q('overall')}`]: '5' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/f/${company.slug}/stepped/thanks`);
    expect((await t.app.inject({ url: done.headers.location as string })).body).toContain('Thank you');
    const { rows } = await t.ctx.db.execute<{ answers: Record<string, unknown>; respondent: Record<string, unknown> }>(sql`SELECT answers, respondent FROM responses WHERE form_id = ${form.id}`);
    expect(rows).toEqual([{ answers: { [q('campus')]: option('campus', 'north'), [q('attended')]: true, [q('overall')]: 5 }, respondent: expect.objectContaining({ name: 'Rui Lopes', email: 'rui@school.test' }) }]);
  });
});

describe('file uploads from a multipart section', () => {
  async function postMultipart(url: string, fields: [string, string | Blob, string?][]) {
    const data = new FormData();
    for (const [name, value, filename] of fields) {
      if (typeof value === 'string') data.append(name, value);
      else data.append(name, value, filename);
    }
    const encoded = new Response(data);
    const payload = Buffer.from(await encoded.arrayBuffer());
    return t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': encoded.headers.get('content-type')! } });
  }

  it('stores a PNG as the FILE answer { fileId, name, size, mime }, keeps it on the next post, refuses a file whose content is not its type', async () => {
    const { company, token } = await t.tenant();
    const definition = {
      slug: 'with-files',
      name: 'Evidence',
      sections: [{ key: 's', name: 'Attach', questions: [{ key: 'shots', name: 'Screenshots', type: 'FILE' }, { key: 'note', name: 'Note', type: 'TEXT' }] }],
    };
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: definition });
    const { q } = idsByKey((await findForm(t.ctx.db, t.ctx, { companyId: company.id, id }))!);
    const invite = await createInvite(t, token, id);
    const url = `/i/${invite.token}`;

    const page = await t.app.inject({ url });
    expect(page.body).toContain('enctype="multipart/form-data"');
    const png = new Blob([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], { type: 'image/png' });
    const fake = new Blob([Buffer.from('MZ not a picture')], { type: 'image/png' });
    const shown = ['_shown', `${q('shots')},${q('note')}`] as [string, string];

    const refused = await follow(t, await postMultipart(url, [['_section', '0'], shown, ['_action', 'next'], [`q.${q('shots')}`, fake, 'evil.png']]));
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Files of this type are not accepted.');

    // "back" on the only section stays there and saves the draft with the stored file
    const stored = await postMultipart(url, [['_section', '0'], shown, ['_action', 'back'], [`q.${q('shots')}`, png, '../shot.png']]);
    expect(stored.statusCode).toBe(303);
    const { rows } = await t.ctx.db.execute<{ answers: Record<string, { fileId: string; name: string; size: number; mime: string }[]> }>(
      sql`SELECT answers FROM invite_drafts WHERE invite_id = ${invite.id}`,
    );
    expect(rows[0].answers[q('shots')]).toEqual([{ fileId: expect.any(String), name: 'shot.png', size: 11, mime: 'image/png' }]);
    expect((await t.app.inject({ url })).body).toContain('shot.png');

    const submit = await postMultipart(url, [['_section', '0'], shown, ['_action', 'next'], [`q.${q('note')}`, 'see attached']]);
    expect(submit.statusCode).toBe(303);
    const { rows: responses } = await t.ctx.db.execute<{ answers: Record<string, unknown> }>(sql`SELECT answers FROM responses WHERE form_id = ${id}`);
    expect(responses[0].answers).toEqual({ [q('shots')]: rows[0].answers[q('shots')], [q('note')]: 'see attached' });
  });
});

describe('opening and limits', () => {
  // Representative agents of the mail scanners and link checkers the issue names; several send a plain browser agent too.
  const SCANNERS = [
    'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17328; Pro)',
    'Microsoft Office Existence Discovery',
    'Outlook-iOS/709.2226530.prod.iphone (4.2413.0)',
    'Google-Safety',
    'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    'Mozilla/5.0 (compatible; Proofpoint URL Defense)',
    'Mimecast URL Protect',
    'Barracuda Sentinel (EE)',
  ];
  const BROWSER = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

  it('a GET of the page never opens the invite: each scanner agent, a browser agent, HEAD, a link preview', async () => {
    const { company, token } = await t.tenant();
    const { form } = await createSteppedForm(t, company.id);
    const invite = await createInvite(t, token, form.id);
    const url = `/i/${invite.token}`;
    expect((await t.app.inject({ method: 'HEAD', url })).statusCode).toBe(200);
    for (const agent of [...SCANNERS, 'WhatsApp/2.23.20.0 A', BROWSER]) {
      const page = await t.app.inject({ url, headers: { 'user-agent': agent } });
      expect(page.statusCode, agent).toBe(200);
      expect(page.body).toContain(`data-seen="/i/${invite.token}/seen"`);
    }
    // a scanner that runs the script and sends its report is still a scanner
    for (const agent of SCANNERS) expect((await t.app.inject({ method: 'POST', url: `${url}/seen`, headers: { 'user-agent': agent } })).statusCode, agent).toBe(204);
    expect(await openState(t, token, form.id, invite.id)).toEqual({ status: 'created', opens: 0 });
  });

  it("the page script's report opens the invite once; then the page stops asking for it", async () => {
    const { company, token } = await t.tenant();
    const { form } = await createSteppedForm(t, company.id);
    const invite = await createInvite(t, token, form.id);
    const url = `/i/${invite.token}`;
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'POST', url: `${url}/seen`, headers: { 'user-agent': BROWSER } })).statusCode).toBe(204);
    expect(await openState(t, token, form.id, invite.id)).toEqual({ status: 'opened', opens: 1 });
    expect((await t.app.inject({ url })).body).not.toContain('data-seen');
    expect((await t.app.inject({ method: 'POST', url: `/i/${'A'.repeat(43)}/seen` })).statusCode).toBe(404);
    expect((await t.post(token, `/v1/invites/${invite.id}/revoke`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `${url}/seen` })).statusCode).toBe(410);
  });

  it('without script, the first POST of a section opens the invite, once', async () => {
    const { company, token } = await t.tenant();
    const { form, q } = await createSteppedForm(t, company.id);
    const invite = await createInvite(t, token, form.id);
    const url = `/i/${invite.token}`;
    const shown = `${q('campus')},${q('attended')}`;
    expect((await post(url, { _section: '0', _shown: shown, _action: 'next' })).statusCode).toBe(303);
    expect((await post(url, { _section: '0', _shown: shown, _action: 'next' })).statusCode).toBe(303);
    expect(await openState(t, token, form.id, invite.id)).toEqual({ status: 'opened', opens: 1 });
  });

  it('posted sections spend the per-address budget of /r/v1 and, past it, answer a 429 page', async () => {
    const remoteAddress = '198.51.100.7';
    const send = () => t.app.inject({ method: 'POST', url: `/i/${'B'.repeat(43)}`, remoteAddress, payload: '_section=0', headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'es' } });
    for (let i = 0; i < RESPONDENT_REQUESTS_PER_MIN; i++) expect((await send()).statusCode).toBe(404);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.body).toContain('Demasiados intentos');
  }, 60_000);
});

describe('status pages', () => {
  it('unknown 404 (no hint), revoked 410, closed 410, invite required 403, with the form name escaped', async () => {
    const { company, token } = await t.tenant();
    const { form } = await createSteppedForm(t, company.id, { name: 'Survey <script>alert(1)</script>' });
    const invite = await createInvite(t, token, form.id);

    const page = await t.app.inject({ url: `/i/${invite.token}` });
    expect(page.body).toContain('Survey &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('<script>alert(1)');

    for (const url of ['/i/' + 'A'.repeat(43), '/i/short', `/f/${company.slug}/nope`, '/f/nope/stepped']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain('Page not found');
      expect(res.body).not.toContain(company.name);
    }

    const publicPage = await t.app.inject({ url: `/f/${company.slug}/stepped`, headers: { 'accept-language': 'es' } });
    expect(publicPage.statusCode).toBe(200);

    expect((await t.post(token, `/v1/invites/${invite.id}/revoke`)).statusCode).toBe(200);
    const gone = await t.app.inject({ url: `/i/${invite.token}` });
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('no longer valid');

    const closedInvite = await createInvite(t, token, form.id, { name: 'Bo', email: 'bo@school.test' });
    await createSteppedForm(t, company.id, { name: 'Survey <script>alert(1)</script>', settings: { isPublic: true, isClosed: true } });
    for (const url of [`/i/${closedInvite.token}`, `/f/${company.slug}/stepped`]) {
      const closed = await t.app.inject({ url });
      expect(closed.statusCode, url).toBe(410);
      expect(closed.body).toContain('This form is closed');
    }
    await createSteppedForm(t, company.id, { slug: 'invite-only', settings: { isPublic: true, requiresInvite: true } });
    await createSteppedForm(t, company.id, { slug: 'private', settings: { isPublic: false } });
    for (const url of [`/f/${company.slug}/invite-only`, `/f/${company.slug}/private`]) {
      const refused = await t.app.inject({ url, headers: { 'accept-language': 'pt-BR,pt;q=0.9' } });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.body).toContain('Convite necessário');
      expect((await post(url, { _section: '0' })).statusCode).toBe(403);
    }
  });

  it('picks the language: the form setting, else Accept-Language among en, pt-BR and es, else the company locale; lang matches the text', async () => {
    const { company, token } = await t.tenant();
    const { form } = await createSteppedForm(t, company.id, { slug: 'es-form', settings: { isPublic: true, language: 'es' } });
    const res = await t.app.inject({ url: `/f/${company.slug}/es-form`, headers: { 'accept-language': 'pt-BR' } });
    expect(res.body).toContain('<html lang="es">');
    expect(res.body).toContain('Paso 1 de 3');
    const invite = await createInvite(t, token, form.id);
    expect((await t.app.inject({ url: `/i/${invite.token}` })).body).toContain('Siguiente');

    // a form without a language at a new company (no locale set): the browser's, else English
    await createSteppedForm(t, company.id, { slug: 'any-language', settings: { isPublic: true } });
    const fresh = (acceptLanguage?: string) => t.app.inject({ url: `/f/${company.slug}/any-language`, headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });
    expect((await fresh('es-AR,es;q=0.9')).body).toContain('<html lang="es">');
    expect((await fresh()).body).toContain('<html lang="en">');
    expect((await fresh('de-DE')).body).toContain('<html lang="en">');

    // then the company's (set to es here)
    await t.ctx.db.execute(sql`UPDATE companies SET settings = settings || '{"locale":"es"}'::jsonb WHERE id = ${company.id}`);
    const page = (acceptLanguage?: string) => t.app.inject({ url: `/f/${company.slug}/any-language`, headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });
    const portuguese = await page('de-DE,de;q=0.9,pt-BR;q=0.8,en;q=0.5');
    expect(portuguese.body).toContain('<html lang="pt-BR">');
    expect(portuguese.body).toContain('Etapa 1 de 3');
    expect((await page('en-GB')).body).toContain('<html lang="en">');
    const none = await page();
    expect(none.body).toContain('<html lang="es">');
    expect(none.body).toContain('Paso 1 de 3');
    expect((await page('de, fr;q=0.5')).body).toContain('<html lang="es">');
  });
});
