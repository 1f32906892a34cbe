import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('GET shows a confirm form (escaped), POST or the one-click POST suppresses with reason unsubscribed; an unknown token is 404', async () => {
  const { company, token } = await t.tenant();
  const survey = await createSurvey(t, company.id);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const invite = (await t.post(token, base, { email: 'o\'brien+<x>@school.edu'.replace('<x>', 'x') })).json().data;

  const page = await t.app.inject({ url: `/u/${invite.token}` });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toContain('text/html');
  expect(page.body).toContain(`<form method="post" action="/u/${invite.token}">`);
  expect(page.body).toContain('o&#39;brien+x@school.edu');
  expect(page.body).not.toContain("o'brien");
  const { rows: before } = await t.ctx.db.execute(sql`SELECT 1 FROM suppressions WHERE company_id = ${company.id}`);
  expect(before).toHaveLength(0);

  const oneClick = await t.app.inject({
    method: 'POST',
    url: `/u/${invite.token}`,
    payload: 'List-Unsubscribe=One-Click',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(oneClick.statusCode).toBe(200);
  expect((await t.app.inject({ method: 'POST', url: `/u/${invite.token}` })).statusCode).toBe(200);
  const { rows } = await t.ctx.db.execute(sql`SELECT address, reason FROM suppressions WHERE company_id = ${company.id}`);
  expect(rows).toEqual([{ address: "o'brien+x@school.edu", reason: 'unsubscribed' }]);
  expect((await t.post(token, `${base}/send`, { channel: 'email' })).json().data.skipped).toEqual([{ id: invite.id, reason: 'suppressed' }]);

  expect((await t.app.inject({ url: `/u/${'A'.repeat(43)}` })).statusCode).toBe(404);
  expect((await t.app.inject({ method: 'POST', url: '/u/<script>' })).statusCode).toBe(404);
});

/** A form-data body as a mail client builds it for the one-click POST (multipart/form-data, CRLF lines). */
const MULTIPART = ['--q1w2e3', 'Content-Disposition: form-data; name="List-Unsubscribe"', '', 'One-Click', '--q1w2e3--', ''].join('\r\n');

it.each([
  ['multipart/form-data', { 'content-type': 'multipart/form-data; boundary=q1w2e3' }, MULTIPART],
  ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }, 'List-Unsubscribe=One-Click'],
  ['an empty multipart body', { 'content-type': 'multipart/form-data; boundary=q1w2e3' }, ''],
  ['a broken JSON body', { 'content-type': 'application/json' }, '{"List-Unsubscribe":'],
  ['a text body without its key', { 'content-type': 'text/plain; charset=utf-8' }, 'unsubscribe me'],
  ['a body without a content type', {}, 'List-Unsubscribe=One-Click'],
])('the one-click POST with %s unsubscribes', async (_label, headers: Record<string, string>, payload) => {
  const { company, token } = await t.tenant();
  const survey = await createSurvey(t, company.id);
  const invite = (await t.post(token, `/v1/forms/${survey.form.id}/invites`, { email: 'one-click@school.edu' })).json().data;
  const answer = await t.app.inject({ method: 'POST', url: `/u/${invite.token}`, payload, headers });
  expect(answer.statusCode, answer.body).toBe(200);
  const { rows } = await t.ctx.db.execute(sql`SELECT address, reason FROM suppressions WHERE company_id = ${company.id}`);
  expect(rows).toEqual([{ address: 'one-click@school.edu', reason: 'unsubscribed' }]);
});

it('a one-click POST body past 16 KB is refused with 413 and unsubscribes nobody', async () => {
  const { company, token } = await t.tenant();
  const survey = await createSurvey(t, company.id);
  const invite = (await t.post(token, `/v1/forms/${survey.form.id}/invites`, { email: 'big@school.edu' })).json().data;
  const payload = `List-Unsubscribe=One-Click&pad=${'x'.repeat(16 * 1024)}`;
  const answer = await t.app.inject({ method: 'POST', url: `/u/${invite.token}`, payload, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  expect(answer.statusCode).toBe(413);
  const { rows } = await t.ctx.db.execute(sql`SELECT 1 FROM suppressions WHERE company_id = ${company.id}`);
  expect(rows).toEqual([]);
});
