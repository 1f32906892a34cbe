import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { respondentClient } from '../../../test/respondent.js';
import { createSteppedForm } from '../../../test/respondent-pages.js';

/** The public link's one-time submission token: one response per rendered page, and a prefill only through the link. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const urlencoded = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const postPage = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: urlencoded(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
const pageToken = (body: string) => /name="_token" value="([^"]+)"/.exec(body)![1];

async function publicForm() {
  const tenant = await t.tenant();
  const stepped = await createSteppedForm(t, tenant.company.id);
  const { q, option } = stepped;
  /** The last section posted with the earlier answers carried in the page, as the no-JS walk ends. */
  const lastSection = (token: string) => ({
    _token: token,
    _section: '2',
    _shown: [q('overall'), q('topics'), q('teacher'), q('comment')].join(','),
    _action: 'next',
    _answers: JSON.stringify({ [q('campus')]: option('campus', 'north'), [q('attended')]: true }),
    [`q.${q('overall')}`]: '5',
  });
  return { tenant, ...stepped, path: `/f/${tenant.company.slug}/stepped`, api: `/r/v1/forms/${tenant.company.slug}/stepped`, lastSection };
}

async function stored(formId: string) {
  const { rows } = await t.ctx.db.execute<{ id: string; respondent: Record<string, unknown> | null }>(sql`SELECT id, respondent FROM responses WHERE form_id = ${formId}`);
  return rows;
}

async function createdEvents(companyId: string) {
  const { rows } = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM events WHERE company_id = ${companyId} AND type = 'response.created'`);
  return rows[0].n;
}

describe('a double submit stores one response', () => {
  it('respondent API: two concurrent submits with one token store one response, and both answer its responseId', async () => {
    const { tenant, form, q, option, api } = await publicForm();
    const client = respondentClient(t);
    const opened = await client.get(api);
    expect(opened.statusCode).toBe(200);
    const { submissionToken, submissionTokenExpiresAt } = opened.json().data;
    expect(new Date(submissionTokenExpiresAt).getTime()).toBe(t.clock.now().getTime() + t.ctx.config.publicLinkTokenHours * 3_600_000);
    const body = { answers: { [q('campus')]: option('campus', 'north'), [q('attended')]: true, [q('overall')]: 4 }, submissionToken };

    const both = await Promise.all([client.post(`${api}/responses`, body), client.post(`${api}/responses`, body)]);
    expect(both.map((res) => res.statusCode).sort()).toEqual([200, 201]);
    const ids = both.map((res) => res.json().data.responseId);
    expect(ids[0]).toBe(ids[1]);
    expect((await stored(form.id)).map((row) => row.id)).toEqual([ids[0]]);
    expect(await createdEvents(tenant.company.id)).toBe(1);

    // A later retry with the same token, even with other answers, is still the first response.
    const retry = await client.post(`${api}/responses`, { ...body, answers: { ...body.answers, [q('overall')]: 1 } });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data.responseId).toBe(ids[0]);
    // Without a token the submit works as the contract says (a new response each time).
    expect((await client.post(`${api}/responses`, { answers: body.answers })).statusCode).toBe(201);
    expect(await stored(form.id)).toHaveLength(2);
  });

  it('respondent API: an altered token, another form\'s token and an expired one are refused with VALIDATION_ERROR', async () => {
    const { form, q, option, api } = await publicForm();
    const other = await publicForm();
    const client = respondentClient(t);
    const answers = { [q('campus')]: option('campus', 'north'), [q('attended')]: true, [q('overall')]: 4 };
    const token: string = (await client.get(api)).json().data.submissionToken;
    const [body, mac] = token.split('.');
    const altered = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), e: 9e15 })).toString('base64url')}.${mac}`;
    const foreign: string = (await client.get(other.api)).json().data.submissionToken;
    for (const submissionToken of [altered, foreign, 'x', `${body}.${mac}x`]) {
      const res = await client.post(`${api}/responses`, { answers, submissionToken });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details.fields).toEqual([expect.objectContaining({ path: 'submissionToken', code: 'invalid_value' })]);
    }
    t.clock.advance(t.ctx.config.publicLinkTokenHours * 3_600_000);
    const expired = await client.post(`${api}/responses`, { answers, submissionToken: token });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.message).toBe('The submission token is not valid.');
    expect(await stored(form.id)).toHaveLength(0);
  });

  it('page without JavaScript: a double tap on "Send answers" stores one response; both taps land on the thank-you page', async () => {
    const { tenant, form, path, lastSection } = await publicForm();
    const page = await t.app.inject({ url: path });
    const fields = lastSection(pageToken(page.body));

    const both = await Promise.all([postPage(path, fields), postPage(path, fields)]);
    expect(both.map((res) => [res.statusCode, res.headers.location])).toEqual([
      [303, `${path}/thanks`],
      [303, `${path}/thanks`],
    ]);
    expect((await postPage(path, fields)).headers.location).toBe(`${path}/thanks`);
    expect(await stored(form.id)).toHaveLength(1);
    expect(await createdEvents(tenant.company.id)).toBe(1);

    // A new opening of the page is a new submission.
    const next = await t.app.inject({ url: path });
    expect((await postPage(path, lastSection(pageToken(next.body)))).statusCode).toBe(303);
    expect(await stored(form.id)).toHaveLength(2);
  });
});

describe('a public page posts only with the token of a page rendered for it', () => {
  it('a cross-site POST without the page token, with a forged one, another form\'s or an expired one is refused (403) and stores nothing', async () => {
    const { form, path, lastSection } = await publicForm();
    const other = await publicForm();
    const forgedQuery = `${path}?name=Mallory&email=mallory%40evil.test`;
    const { _token: _omitted, ...withoutToken } = lastSection('');
    const refused = await postPage(forgedQuery, withoutToken, { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.body).toContain('This page has expired');

    const real = pageToken((await t.app.inject({ url: path })).body);
    const [body, mac] = real.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const withPrefill = `${Buffer.from(JSON.stringify({ ...payload, p: { respondent: { name: 'Mallory' } } })).toString('base64url')}.${mac}`;
    const foreign = pageToken((await t.app.inject({ url: other.path })).body);
    for (const token of [withPrefill, foreign, 'garbage', `${real}.x`]) {
      expect((await postPage(path, lastSection(token))).statusCode).toBe(403);
    }
    // a token fetched by another site and posted from the victim's browser: the browser names the other site
    expect((await postPage(path, lastSection(real), { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    t.clock.advance(t.ctx.config.publicLinkTokenHours * 3_600_000);
    expect((await postPage(path, lastSection(real))).statusCode).toBe(403);
    expect(await stored(form.id)).toHaveLength(0);
  });

  it('the prefill comes from the link the page was opened with, never from the POST', async () => {
    const { form, path, lastSection } = await publicForm();
    const plain = pageToken((await t.app.inject({ url: path })).body);
    const forged = await postPage(`${path}?name=Mallory&email=mallory%40evil.test&externalId=X-1`, lastSection(plain));
    expect(forged.statusCode).toBe(303);
    const linked = pageToken((await t.app.inject({ url: `${path}?name=Rui%20Lopes&externalId=STU-7` })).body);
    expect((await postPage(`${path}?name=Mallory`, lastSection(linked), { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(303);
    const rows = await stored(form.id);
    expect(rows.map((row) => row.respondent)).toEqual(expect.arrayContaining([null, expect.objectContaining({ name: 'Rui Lopes', externalId: 'STU-7', email: null })]));
    expect(rows).toHaveLength(2);
  });
});
