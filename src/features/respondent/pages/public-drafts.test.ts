import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { createSteppedForm, follow } from '../../../../test/respondent-pages.js';
import { pruneUploads } from '../prune-uploads.job.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());

const form = (fields: Record<string, string>) => new URLSearchParams(Object.entries(fields)).toString();
const post = (url: string, fields: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, payload: form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const pageToken = (body: string) => /name="_token" value="([^"]+)"/.exec(body)![1];
const carried = (body: string) => JSON.parse(/name="_answers" value="([^"]*)"/.exec(body)![1].replace(/&quot;/g, '"'));

describe('save and resume on a public link', () => {
  it('saves the answers so far behind a resume link (its hash stored, scoped to the form, expiring) that reopens them on the saved section', async () => {
    const { company } = await t.tenant();
    const { form: stepped, q, option } = await createSteppedForm(t, company.id);
    const url = `/f/${company.slug}/stepped`;
    const first = await t.app.inject({ url: `${url}?name=Rui%20Lopes` });
    expect(first.body).toContain('<button type="submit" name="_action" value="save" class="secondary">Save and continue later</button>');
    const _token = pageToken(first.body);
    const next = await post(url, { _token, _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'next', _answers: '{}', [`q.${q('campus')}`]: option('campus', 'north'), [`q.${q('attended')}`]: 'true' });
    const second = await follow(t, next);
    // section 2 half answered (its mandatory rating not given): saving checks nothing
    const saved = await post(url, { _token, _section: '2', _shown: [q('overall'), q('comment')].join(','), _action: 'save', _answers: JSON.stringify(carried(second.body)), [`q.${q('comment')}`]: 'Good term' });
    expect(saved.statusCode).toBe(303);
    const location = saved.headers.location as string;
    expect(location).toMatch(new RegExp(`^${url}\\?resume=[\\w-]{43}&saved=1$`));
    const resumeToken = new URL(location, 'http://x').searchParams.get('resume')!;

    const { rows } = await t.ctx.db.execute<{ token_hash: string; section_index: number; answers: object; prefill: object; days: number }>(sql`
      SELECT token_hash, section_index, answers, prefill, round(extract(epoch FROM expires_at - now()) / 86400) AS days FROM public_link_drafts WHERE form_id = ${stepped.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(resumeToken);
    expect(rows[0]).toMatchObject({ section_index: 2, answers: { [q('campus')]: option('campus', 'north'), [q('attended')]: true, [q('comment')]: 'Good term' }, prefill: { respondent: { name: 'Rui Lopes' } } });

    // just after saving: the section as it was, the notice and the link to keep
    const resumed = await t.app.inject({ url: location });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.body).toContain('Your answers are saved until');
    expect(resumed.body).toContain(`<p class="resume">http://localhost:3000${url}?resume=${resumeToken}</p>`);
    expect(resumed.body).toContain('Good term');
    expect(carried(resumed.body)).toMatchObject({ [q('campus')]: option('campus', 'north'), [q('attended')]: true });
    // later, in another browser (no cookie): the same answers, no notice; a new page token with the saved prefill
    const later = await t.app.inject({ url: `${url}?resume=${resumeToken}` });
    expect(later.body).not.toContain('Your answers are saved until');
    expect(later.body).toContain('Good term');
    const laterToken = pageToken(later.body);
    expect(laterToken).not.toBe(_token);
    const done = await post(url, { _token: laterToken, _section: '2', _shown: [q('overall'), q('topics'), q('teacher'), q('comment')].join(','), _action: 'next', _answers: JSON.stringify(carried(later.body)), [`q.${q('overall')}`]: '4', [`q.${q('comment')}`]: 'Good term' });
    expect(done.headers.location).toBe(`${url}/thanks`);
    const responses = await t.ctx.db.execute<{ answers: Record<string, unknown>; respondent: Record<string, unknown> }>(sql`SELECT answers, respondent FROM responses WHERE form_id = ${stepped.id}`);
    expect(responses.rows).toEqual([{ answers: expect.objectContaining({ [q('overall')]: 4, [q('comment')]: 'Good term' }), respondent: expect.objectContaining({ name: 'Rui Lopes' }) }]);
  });

  it('a resume link of another form, unknown, malformed or expired starts the form afresh and says so; expired drafts are pruned', async () => {
    const { company } = await t.tenant();
    const { q, option } = await createSteppedForm(t, company.id);
    await createSteppedForm(t, company.id, { slug: 'other', settings: { isPublic: true } });
    const url = `/f/${company.slug}/stepped`;
    const page = await t.app.inject({ url });
    const saved = await post(url, { _token: pageToken(page.body), _section: '0', _shown: `${q('campus')},${q('attended')}`, _action: 'save', _answers: '{}', [`q.${q('campus')}`]: option('campus', 'north') });
    const resumeToken = new URL(saved.headers.location as string, 'http://x').searchParams.get('resume')!;
    for (const link of [`/f/${company.slug}/other?resume=${resumeToken}`, `${url}?resume=${'A'.repeat(43)}`, `${url}?resume=%3Cscript%3E`, `${url}?resume=`]) {
      const fresh = await t.app.inject({ url: link });
      expect(fresh.statusCode, link).toBe(200);
      expect(fresh.body, link).toContain('This link to saved answers has expired or no longer works');
      expect(fresh.body, link).not.toMatch(/ checked[ >]/);
    }
    const other = await t.tenant();
    expect((await t.app.inject({ url: `/f/${other.company.slug}/stepped?resume=${resumeToken}` })).statusCode).toBe(404);

    t.clock.advance(31 * 86_400_000);
    expect((await t.app.inject({ url: `${url}?resume=${resumeToken}` })).body).toContain('This link to saved answers has expired');
    await pruneUploads.sweep(t.ctx as never);
    const { rows } = await t.ctx.db.execute(sql`SELECT 1 FROM public_link_drafts WHERE company_id = ${company.id}`);
    expect(rows).toEqual([]);
  });

  it('answers that do not fit their questions (a page altered on the way) are left out of the saved draft', async () => {
    const { company } = await t.tenant();
    const { form: stepped, q, option } = await createSteppedForm(t, company.id);
    const url = `/f/${company.slug}/stepped`;
    const page = await t.app.inject({ url });
    const state = { 'not-a-question': 1, [q('campus')]: option('campus', 'north'), [q('attended')]: 'maybe' };
    const saved = await post(url, { _token: pageToken(page.body), _section: '2', _shown: q('overall'), _action: 'save', _answers: JSON.stringify(state), [`q.${q('overall')}`]: '99' });
    expect(saved.statusCode).toBe(303);
    const { rows } = await t.ctx.db.execute<{ answers: object }>(sql`SELECT answers FROM public_link_drafts WHERE form_id = ${stepped.id}`);
    expect(rows).toEqual([{ answers: { [q('campus')]: option('campus', 'north') } }]);
    expect((await t.app.inject({ url: saved.headers.location as string })).statusCode).toBe(200);
  });
});
