/**
 * Randomisation (issue 29 item 3) through the pages and the API: each invite's own order of a
 * shuffled section, stable across reloads, a section sent back and a draft; anchored options
 * last; the order stored with the response and read back; answers stored by id whatever the order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { createInvite, follow, idsByKey } from '../../../../test/respondent-pages.js';
import { shuffledForm } from '../../../../test/shuffled-form.js';
import { ApiError } from '../../../lib/errors.js';
import { findForm } from '../../forms/find-form.js';
import { importForm } from '../../forms/import-form.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());

const options = (...keys: string[]) => keys.map((key) => ({ key, name: `Option ${key}` }));

async function setUp(slug: string) {
  const { company, token } = await t.tenant();
  const { id } = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: shuffledForm(slug) });
  const form = (await findForm(t.ctx.db, t.ctx, { companyId: company.id, id }))!;
  const ids = idsByKey(form);
  const section = form.content.sections[0];
  return { company, token, form, ...ids, questionIds: section.questions.map((q) => q.id), optionIds: (key: string) => section.questions.find((q) => q.key === key)!.options!.map((o) => o.id) };
}

/** The order a page shows: ids in the order their markers first appear in the HTML. */
const shownOrder = (body: string, ids: string[], marker: (id: string) => string) =>
  ids.filter((id) => body.includes(marker(id))).sort((a, b) => body.indexOf(marker(a)) - body.indexOf(marker(b)));

function seen(body: string, s: Awaited<ReturnType<typeof setUp>>) {
  const pick = s.q('pick');
  const rank = s.q('rank');
  return {
    questions: shownOrder(body, s.questionIds, (id) => `data-q="${id}"`),
    pick: shownOrder(body, s.optionIds('pick'), (id) => `value="${id}"`),
    many: shownOrder(body, s.optionIds('many'), (id) => `value="${id}"`),
    rank: shownOrder(body, s.optionIds('rank'), (id) => `name="q.${rank}.${id}"`),
    pickQuestion: pick,
  };
}

const urlencoded = (fields: Record<string, string | string[]>) =>
  new URLSearchParams(Object.entries(fields).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString();
const post = (url: string, fields: Record<string, string | string[]>, cookie?: string) =>
  t.app.inject({ method: 'POST', url, payload: urlencoded(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) } });

describe('randomisation on the personal link', () => {
  it('gives invites their own orders, keeps each one across reloads, a section sent back and a draft, anchored options last, and stores it with the response', async () => {
    const s = await setUp('shuffled-invites');
    const invites = await Promise.all(Array.from({ length: 6 }, (_, i) => createInvite(t, s.token, s.form.id, { name: `P${i}`, email: `p${i}@school.test` })));
    const orders = [];
    for (const invite of invites) {
      const page = await t.app.inject({ url: `/i/${invite.token}` });
      expect(page.statusCode).toBe(200);
      const order = seen(page.body, s);
      expect(order.questions).toHaveLength(5);
      expect(order.pick.at(-1)).toBe(s.option('pick', 'other'));
      expect(order.many.at(-1)).toBe(s.option('many', 'none'));
      expect(order.rank).toHaveLength(4);
      orders.push(JSON.stringify(order));
    }
    expect(new Set(orders).size).toBeGreaterThan(1);

    const invite = invites[0];
    const url = `/i/${invite.token}`;
    expect(JSON.stringify(seen((await t.app.inject({ url })).body, s))).toBe(orders[0]);
    // a section sent back (the mandatory pick missing) keeps a draft and the same order
    const shown = s.questionIds.join(',');
    const sentBack = await follow(t, await post(url, { _section: '0', _shown: shown, _action: 'next', [`q.${s.q('word')}`]: 'hello' }));
    expect(sentBack.statusCode).toBe(422);
    expect(JSON.stringify(seen(sentBack.body, s))).toBe(orders[0]);
    const draft = await t.app.inject({ method: 'PUT', url: `/r/v1/invites/${invite.token}/draft`, payload: { answers: { [s.q('word')]: 'again' }, sectionIndex: 0 } });
    expect(draft.statusCode).toBe(200);
    const afterDraft = await t.app.inject({ url });
    expect(afterDraft.body).toContain('value="again"');
    expect(JSON.stringify(seen(afterDraft.body, s))).toBe(orders[0]);

    // answers are posted and stored by id, whatever the order shown
    const order = JSON.parse(orders[0]) as ReturnType<typeof seen>;
    const ranking = Object.fromEntries(order.rank.map((id, i) => [`q.${s.q('rank')}.${id}`, String(order.rank.length - i)]));
    expect((await post(url, { _section: '0', _shown: shown, _action: 'next', [`q.${s.q('pick')}`]: s.option('pick', 'c'), [`q.${s.q('many')}`]: [s.option('many', 'none'), s.option('many', 'g')], ...ranking })).statusCode).toBe(303);
    const done = await post(url, { _section: '1', _shown: s.q('more'), _action: 'next', [`q.${s.q('more')}`]: s.option('more', 'y') });
    expect(done.headers.location).toBe(`${url}/thanks`);

    const list = await t.get(s.token, `/v1/forms/${s.form.id}/responses`);
    const responseId = list.json().data[0].id as string;
    const read = await t.get(s.token, `/v1/responses/${responseId}`);
    expect(read.statusCode).toBe(200);
    const record = read.json().data;
    expect(record.answers[s.q('pick')]).toBe(s.option('pick', 'c'));
    expect([...record.answers[s.q('many')]].sort()).toEqual([s.option('many', 'g'), s.option('many', 'none')].sort());
    expect(record.answers[s.q('rank')]).toEqual([...order.rank].reverse());
    expect(record.answers[s.q('more')]).toBe(s.option('more', 'y'));
    const sectionId = s.form.content.sections[0].id;
    expect(record.presentedOrder).toEqual({
      [sectionId]: { questions: order.questions, options: { [s.q('pick')]: order.pick, [s.q('many')]: order.many, [s.q('rank')]: order.rank } },
    });
  });
});

describe('randomisation on the public link', () => {
  it('keeps the visitor order of its page token from section to section and stores it', async () => {
    const s = await setUp('shuffled-public');
    const { company } = s;
    const link = `/f/${company.slug}/shuffled-public`;
    const first = await t.app.inject({ url: link });
    const order = seen(first.body, s);
    expect(order.pick.at(-1)).toBe(s.option('pick', 'other'));
    const pageToken = /name="_token" value="([^"]+)"/.exec(first.body)![1];
    const sentBack = await post(link, { _token: pageToken, _section: '0', _shown: s.questionIds.join(','), _action: 'next', _answers: '{}' });
    const again = await follow(t, sentBack);
    expect(again.statusCode).toBe(422);
    expect(seen(again.body, s)).toEqual(order);
    const cookie = String([sentBack.headers['set-cookie']].flat()[0]).split(';')[0];
    const step = await post(link, { _token: pageToken, _section: '0', _shown: s.questionIds.join(','), _action: 'next', _answers: '{}', [`q.${s.q('pick')}`]: s.option('pick', 'other') }, cookie);
    const second = await follow(t, step);
    expect(second.body).toContain('Anything else');
    const state = /name="_answers" value="([^"]*)"/.exec(second.body)![1].replace(/&quot;/g, '"');
    const done = await post(link, { _token: pageToken, _section: '1', _shown: s.q('more'), _action: 'next', _answers: state }, cookie);
    expect(done.headers.location).toBe(`${link}/thanks`);
    const list = await t.get(s.token, `/v1/forms/${s.form.id}/responses?include=answers`);
    const response = list.json().data[0];
    expect(response.answers[s.q('pick')]).toBe(s.option('pick', 'other'));
    const record = (await t.get(s.token, `/v1/responses/${response.id}`)).json().data;
    expect(record.presentedOrder[s.form.content.sections[0].id].questions).toEqual(order.questions);
  });

  it('stores no order for a submit through the API without a page token', async () => {
    const s = await setUp('shuffled-api');
    const submit = await t.app.inject({ method: 'POST', url: `/r/v1/forms/${s.company.slug}/shuffled-api/responses`, payload: { answers: { [s.q('pick')]: s.option('pick', 'a') } } });
    expect(submit.statusCode).toBe(201);
    const record = (await t.get(s.token, `/v1/responses/${submit.json().data.responseId}`)).json().data;
    expect(record.presentedOrder).toBeNull();
  });
});

describe('randomisation settings in the form definition', () => {
  const refusal = async (raw: unknown) => {
    const { company } = await t.tenant();
    const error = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: raw }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    return ((error as ApiError).details as { fields: { path: string; code: string }[] }).fields.map((f) => `${f.path} ${f.code}`);
  };

  it('refuses anchored on a matrix row, a condition inside a shuffled section and a flag that is not a boolean', async () => {
    const matrix = { key: 'grid', name: 'Grid', type: 'MATRIX', rows: [{ key: 'r', name: 'R', anchored: true }], columns: options('c') };
    expect(await refusal(shuffledForm('bad-anchor', { sections: [{ key: 's', name: 'S', questions: [matrix] }] }))).toContain('sections[0].questions[0].rows[0].anchored not_applicable');
    const dependent = { key: 'why', name: 'Why', type: 'TEXT', visibleIf: { question: 'first', equals: true } };
    const shuffled = { key: 's', name: 'S', shuffleQuestions: true, questions: [{ key: 'first', name: 'First', type: 'BOOLEAN' }, dependent] };
    expect(await refusal(shuffledForm('bad-condition', { sections: [shuffled] }))).toContain('sections[0].questions[1].visibleIf invalid_reference');
    expect((await refusal(shuffledForm('bad-flag', { sections: [{ key: 's', name: 'S', shuffleOptions: 'yes', questions: [] }] }))).join()).toContain('sections[0].shuffleOptions');
  });
});
