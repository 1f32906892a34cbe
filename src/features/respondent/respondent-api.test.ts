import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { invites } from '../../platform/db/schema.js';
import { importEntityFile } from '../entities/import-entities.js';
import { listEntities } from '../entities/list-entities.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { clientAddress, everyTypeForm, invite, keyedForm, PNG, respondentClient, type KeyedForm } from '../../../test/respondent.js';
import { MAX_UPLOAD_BYTES } from './upload-type.js';
import { MAX_ANSWERS_BYTES } from './answers.js';
import { pruneUploads } from './prune-uploads.job.js';
import { RESPONDENT_REQUESTS_PER_MIN } from '../../platform/app/address-budget.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

type Tenant = Awaited<ReturnType<TestApp['tenant']>>;

function expectError(res: { statusCode: number; body: string; headers: Record<string, unknown>; json(): any }, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
  expect(res.headers['x-request-id']).toBeTruthy();
}

async function events(tenant: Tenant, type: string): Promise<any[]> {
  const res = await t.get(tenant.token, `/v1/events?type=${type}&limit=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function inviteState(id: string) {
  const [row] = await t.ctx.db
    .select({
      status: invites.status,
      opened_at: invites.openedAt,
      started_at: invites.startedAt,
      responded_at: invites.respondedAt,
      drafts: sql<number>`(SELECT count(*)::int FROM invite_drafts d WHERE d.invite_id = ${invites.id})`,
    })
    .from(invites)
    .where(eq(invites.id, id));
  return row;
}

/** The spec's invite.* data, field by field, of an invite created alone and never sent. */
function inviteEventData(f: KeyedForm, inv: { id: string }, status: string, respondent: Record<string, string | null>) {
  return { formId: f.form.id, formName: f.form.name, inviteId: inv.id, status, channel: null, batchId: null, respondent, failReason: null };
}

/** Answers to every question type of the example, with the online section shown (campus ONLINE). */
function everyTypeAnswers(f: KeyedForm, file: { fileId: string; name: string; size: number; mime: string }) {
  return {
    [f.q.campus]: f.option('campus', 'ONLINE'),
    [f.q.nickname]: 'Ana <b>"A"</b> ✓',
    [f.q.birthDate]: '2001-02-28',
    [f.q.preferredTime]: '08:30',
    [f.q.firstLesson]: '2026-02-01T10:15:00.000Z',
    [f.q.attendsRegularly]: false,
    [f.q.missedClasses]: 3,
    [f.q.overall]: 2,
    [f.q.nps]: 9,
    [f.q.workload]: 7,
    [f.q.recommendReason]: 'Line one\nLine two',
    [f.q.improvementAreas]: [f.option('improvementAreas', 'pace'), f.option('improvementAreas', 'materials')],
    [f.q.improvementDetail]: 'Slower, please.',
    [f.q.format]: f.option('format', 'hybrid'),
    [f.q.topicsRanking]: [f.option('topicsRanking', 'labs'), f.option('topicsRanking', 'theory'), f.option('topicsRanking', 'projects')],
    [f.q.teacherMatrix]: {
      [f.row('teacherMatrix', 'clarity')]: f.column('teacherMatrix', 'good'),
      [f.row('teacherMatrix', 'punctuality')]: f.column('teacherMatrix', 'excellent'),
      [f.row('teacherMatrix', 'support')]: f.column('teacherMatrix', 'poor'),
    },
    [f.q.platformIssues]: true,
    [f.q.screenshots]: [file],
  };
}

/** One mandatory BOOLEAN, and a mandatory TEXT shown only when it is true. */
const CONDITIONAL = (slug: string, settings: Record<string, boolean> = {}) => ({
  slug,
  name: 'Conditional',
  settings: { isPublic: true, ...settings },
  dims: [
    { key: 'cohort', kind: 'text', source: 'link' },
    { key: 'group', kind: 'text', source: 'invite' },
  ],
  sections: [
    {
      key: 'main',
      name: 'Main',
      questions: [
        { key: 'attended', name: 'Did you attend?', type: 'BOOLEAN', mandatory: true },
        { key: 'why', name: 'Why?', type: 'TEXT', mandatory: true, visibleIf: { question: 'attended', equals: true } },
        { key: 'note', name: 'Note', type: 'TEXT' },
      ],
    },
  ],
});

describe('personal link: open, draft, submit', () => {
  it('opens once for a person; a WhatsApp preview GET and a HEAD leave the invite unopened', async () => {
    const tenant = await t.tenant();
    const f = await everyTypeForm(t, tenant.company.id);
    const inv = await invite(t, tenant.company.id, f.form.id, { name: 'Ana Souza' });
    const client = respondentClient(t);
    const url = `/r/v1/invites/${inv.token}`;

    const preview = await client.get(url, { 'user-agent': 'WhatsApp/2.23.20.0 A' });
    expect(preview.statusCode, preview.body).toBe(200);
    const head = await client.call({ method: 'HEAD', url, headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/126 Mobile' } });
    expect(head.statusCode).toBe(200);
    for (const agent of ['facebookexternalhit/1.1', 'Slackbot-LinkExpanding 1.0', 'TelegramBot (like TwitterBot)', 'Mozilla/5.0 (compatible; Googlebot/2.1)']) {
      expect((await client.get(url, { 'user-agent': agent })).statusCode).toBe(200);
    }
    expect(await inviteState(inv.id)).toMatchObject({ status: 'created', opened_at: null });
    expect(await events(tenant, 'invite.opened')).toHaveLength(0);

    const person = await client.get(url, { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148 Safari/604.1' });
    expect(person.statusCode, person.body).toBe(200);
    expect(person.headers['cache-control']).toBe('no-store');
    expect(person.headers['ratelimit-limit']).toBe(String(RESPONDENT_REQUESTS_PER_MIN));
    const body = person.json().data;
    expect(body).toMatchObject({ status: 'open', respondent: { name: 'Ana Souza' }, draft: null, company: { name: tenant.company.name, slug: tenant.company.slug, locale: 'en' } }); // no locale set: en, the last fallback
    expect(body.form).toMatchObject({ id: f.form.id, name: f.form.name, slug: f.form.slug });
    expect(body.form.content.sections).toHaveLength(3);
    expect(JSON.stringify(body)).not.toContain(inv.token);
    await client.get(url);
    expect(await inviteState(inv.id)).toMatchObject({ status: 'opened', opened_at: t.clock.now() });
    const opened = await events(tenant, 'invite.opened');
    expect(opened).toHaveLength(1);
    expect(opened[0].data).toEqual(inviteEventData(f, inv, 'opened', { name: 'Ana Souza', email: inv.email, phone: null, externalId: null }));
  });

  it('saves a draft, marks started once (first save with an answer), resumes it, and never lowers the status', async () => {
    const tenant = await t.tenant();
    const f = await everyTypeForm(t, tenant.company.id);
    const inv = await invite(t, tenant.company.id, f.form.id);
    const client = respondentClient(t);
    const url = `/r/v1/invites/${inv.token}`;

    const empty = await client.put(`${url}/draft`, { answers: {}, sectionIndex: 0 });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(await inviteState(inv.id)).toMatchObject({ status: 'created', started_at: null, drafts: 1 });

    const first = await client.put(`${url}/draft`, { answers: { [f.q.nickname]: 'Ana' }, sectionIndex: 1 });
    expect(first.json()).toEqual({ success: true, data: { savedAt: t.clock.now().toISOString() } });
    t.clock.advance(1000);
    await client.put(`${url}/draft`, { answers: { [f.q.nickname]: 'Ana S.', [f.q.campus]: f.option('campus', 'NORTH') }, sectionIndex: 1 });
    expect(await inviteState(inv.id)).toMatchObject({ status: 'started', drafts: 1 });
    const started = await events(tenant, 'invite.started');
    expect(started).toHaveLength(1);
    expect(started[0].data).toMatchObject({ inviteId: inv.id, status: 'started', formName: f.form.name });

    // Opened after started: invite.opened fires, the stored status stays started.
    const resumed = (await client.get(url)).json().data;
    expect(resumed.draft).toEqual({
      answers: { [f.q.nickname]: 'Ana S.', [f.q.campus]: f.option('campus', 'NORTH') },
      sectionIndex: 1,
      savedAt: t.clock.now().toISOString(),
    });
    expect(await inviteState(inv.id)).toMatchObject({ status: 'started' });
    expect(await events(tenant, 'invite.opened')).toHaveLength(1);
  });

  it('emits invite.opened and invite.started once when 10 first opens and 10 first saves race', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('cond-race-open'));
    const inv = await invite(t, tenant.company.id, f.form.id);
    const client = respondentClient(t);
    const url = `/r/v1/invites/${inv.token}`;
    const opens = await Promise.all(Array.from({ length: 10 }, () => client.get(url)));
    expect(opens.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    const saves = await Promise.all(Array.from({ length: 10 }, (_, i) => client.put(`${url}/draft`, { answers: { [f.q.note]: `n${i}` } })));
    expect(saves.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    expect(await events(tenant, 'invite.opened')).toHaveLength(1);
    expect(await events(tenant, 'invite.started')).toHaveLength(1);
    expect(await inviteState(inv.id)).toMatchObject({ status: 'started', drafts: 1 });
  });

  it('refuses draft answers of unknown questions or of the wrong shape, and drops hidden ones', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('cond-draft'));
    const inv = await invite(t, tenant.company.id, f.form.id);
    const client = respondentClient(t);
    const url = `/r/v1/invites/${inv.token}/draft`;
    const unknown = await client.put(url, { answers: { 'not-a-question': 'x' } });
    expectError(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.json().error.details.fields).toEqual([expect.objectContaining({ path: 'answers.not-a-question', code: 'unknown_field' })]);
    const wrong = await client.put(url, { answers: { [f.q.attended]: 'yes' } });
    expect(wrong.json().error.details.fields).toEqual([expect.objectContaining({ path: `answers.${f.q.attended}`, code: 'invalid_type' })]);
    expect(await inviteState(inv.id)).toMatchObject({ drafts: 0, started_at: null });

    await client.put(url, { answers: { [f.q.attended]: false, [f.q.why]: 'hidden' } });
    const { rows } = await t.ctx.db.execute<{ answers: unknown }>(sql`SELECT answers FROM invite_drafts WHERE invite_id = ${inv.id}`);
    expect(rows[0].answers).toEqual({ [f.q.attended]: false });
  });

  it('submits: every answer shape round-trips unchanged; respondent and dims come from the invite; events carry the full data', async () => {
    const tenant = await t.tenant();
    const f = await everyTypeForm(t, tenant.company.id);
    const inv = await invite(t, tenant.company.id, f.form.id, { name: 'Ana Souza', externalId: 'S-1', dims: { cohortYear: 2026 } });
    const client = respondentClient(t);
    const url = `/r/v1/invites/${inv.token}`;
    await client.get(url);
    await client.put(`${url}/draft`, { answers: { [f.q.nickname]: 'Ana' } });

    const uploaded = await client.upload(`${url}/files`, { name: 'screen shot.png', mime: 'image/png', data: PNG });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = uploaded.json().data;
    expect(file).toEqual({ fileId: expect.any(String), name: 'screen shot.png', size: PNG.length, mime: 'image/png' });
    const stored = await readFile(join(t.ctx.config.dataDir, 'uploads', tenant.company.id, file.fileId));
    expect(stored.equals(PNG)).toBe(true);

    const answers = everyTypeAnswers(f, file);
    t.clock.advance(5000);
    const submitted = await client.post(`${url}/submit`, { answers });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const { responseId } = submitted.json().data;

    const response = await t.get(tenant.token, `/v1/responses/${responseId}`);
    expect(response.statusCode, response.body).toBe(200);
    const record = response.json().data;
    expect(record.answers).toEqual(answers);
    expect(record).toMatchObject({
      inviteId: inv.id,
      respondent: { name: 'Ana Souza', email: inv.email, phone: null, externalId: 'S-1' },
      dims: { cohortYear: '2026' },
      orgSource: 'none',
      orgUnitId: null,
    });
    expect(await inviteState(inv.id)).toMatchObject({ status: 'responded', responded_at: t.clock.now(), drafts: 0 });

    const [created] = await events(tenant, 'response.created');
    expect(created.data).toEqual({
      formId: f.form.id,
      formName: f.form.name,
      formSlug: f.form.slug,
      responseId,
      inviteId: inv.id,
      completedAt: t.clock.now().toISOString(),
      respondent: { name: 'Ana Souza', email: inv.email, phone: null, externalId: 'S-1' },
      answers,
      dims: { cohortYear: '2026' },
      orgUnitId: null,
      orgPath: null,
      orgSource: 'none',
    });
    const responded = await events(tenant, 'invite.responded');
    expect(responded).toHaveLength(1);
    expect(responded[0].data).toEqual(inviteEventData(f, inv, 'responded', { name: 'Ana Souza', email: inv.email, phone: null, externalId: 'S-1' }));
    expect(created.occurredAt).toBe(responded[0].occurredAt);

    // After submit: the page shows "already answered"; a save or a second submit is 409.
    expect((await client.get(url)).json().data).toMatchObject({ status: 'responded', draft: null });
    expectError(await client.put(`${url}/draft`, { answers: {} }), 409, 'ALREADY_RESPONDED');
    expectError(await client.post(`${url}/submit`, { answers }), 409, 'ALREADY_RESPONDED');
  });

  it('drops the answer to a hidden question and does not require a hidden mandatory one', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('cond-submit'));
    const client = respondentClient(t);

    const shown = await invite(t, tenant.company.id, f.form.id);
    const missing = await client.post(`/r/v1/invites/${shown.token}/submit`, { answers: { [f.q.attended]: true } });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.json().error.details.fields).toEqual([expect.objectContaining({ path: `answers.${f.q.why}`, code: 'required' })]);
    expect(await inviteState(shown.id)).toMatchObject({ status: 'created', responded_at: null });

    const hidden = await invite(t, tenant.company.id, f.form.id);
    const res = await client.post(`/r/v1/invites/${hidden.token}/submit`, { answers: { [f.q.attended]: false, [f.q.why]: 'should be dropped' } });
    expect(res.statusCode, res.body).toBe(201);
    const record = (await t.get(tenant.token, `/v1/responses/${res.json().data.responseId}`)).json().data;
    expect(record.answers).toEqual({ [f.q.attended]: false });
  });

  it('gives one response for 10 racing submits of one invite: one 201, nine 409 ALREADY_RESPONDED', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('cond-race'));
    const inv = await invite(t, tenant.company.id, f.form.id);
    const client = respondentClient(t);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.post(`/r/v1/invites/${inv.token}/submit`, { answers: { [f.q.attended]: false, [f.q.note]: `try ${i}` } })),
    );
    const statuses = results.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const res of results.filter((r) => r.statusCode === 409)) expectError(res, 409, 'ALREADY_RESPONDED');
    const { rows } = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM responses WHERE invite_id = ${inv.id}`);
    expect(rows[0].n).toBe(1);
    expect(await events(tenant, 'invite.responded')).toHaveLength(1);
    expect(await events(tenant, 'response.created')).toHaveLength(1);
  });
});

describe('org and dims of the response (orgSource invite, link, answer, none)', () => {
  const unitForm = (slug: string, source: 'invite' | 'link' | 'answer') => ({
    slug,
    name: `Units ${source}`,
    settings: { isPublic: true },
    dims: [{ key: 'campus', kind: 'unit', source, ...(source === 'answer' ? { question: 'where' } : {}) }],
    sections: [
      {
        key: 'main',
        name: 'Main',
        questions: [{ key: 'where', name: 'Where?', type: 'RADIO', options: [{ key: 'NORTH', name: 'North' }, { key: 'ELSEWHERE', name: 'Elsewhere' }] }],
      },
    ],
  });

  it('takes the org from the invite, the link or an answered unit, and canonicalises dims by code', async () => {
    const tenant = await t.tenant();
    await importEntityFile(t.ctx.db, t.ctx, { companyId: tenant.company.id, text: 'kind,code,name,parentCode\nunit,SCHOOL,School,\nunit,NORTH,North,SCHOOL\n', format: 'csv' });
    const units = await listEntities(t.ctx.db, t.ctx, { companyId: tenant.company.id, kind: 'unit' });
    const [school, north] = ['SCHOOL', 'NORTH'].map((code) => units.find((e) => e.code === code)!);
    const orgOf = async (responseId: string) => {
      const record = (await t.get(tenant.token, `/v1/responses/${responseId}`)).json().data;
      return { dims: record.dims, orgUnitId: record.orgUnitId, orgPath: record.orgPath, orgSource: record.orgSource };
    };
    const expected = (source: string) => ({ dims: { campus: north.id }, orgUnitId: north.id, orgPath: `/${school.id}/${north.id}/`, orgSource: source });
    const client = respondentClient(t);

    const byInvite = await keyedForm(t, tenant.company.id, unitForm('org-invite', 'invite'));
    const inv = await invite(t, tenant.company.id, byInvite.form.id, { dims: { campus: 'NORTH' } });
    const fromInvite = await client.post(`/r/v1/invites/${inv.token}/submit`, { answers: {} });
    expect(await orgOf(fromInvite.json().data.responseId)).toEqual(expected('invite'));

    const byLink = await keyedForm(t, tenant.company.id, unitForm('org-link', 'link'));
    const fromLink = await client.post(`/r/v1/forms/${tenant.company.slug}/org-link/responses`, { answers: {}, dims: { campus: 'NORTH' } });
    expect(await orgOf(fromLink.json().data.responseId)).toEqual(expected('link'));
    const unknownUnit = await client.post(`/r/v1/forms/${tenant.company.slug}/org-link/responses`, { answers: {}, dims: { campus: 'NOWHERE' } });
    expectError(unknownUnit, 400, 'VALIDATION_ERROR');
    expect(unknownUnit.json().error.details.fields).toEqual([expect.objectContaining({ path: 'dims.campus', code: 'unknown_entity' })]);
    expect(byLink.form.slug).toBe('org-link');

    const byAnswer = await keyedForm(t, tenant.company.id, unitForm('org-answer', 'answer'));
    const answered = await client.post(`/r/v1/forms/${tenant.company.slug}/org-answer/responses`, { answers: { [byAnswer.q.where]: byAnswer.option('where', 'NORTH') } });
    expect(await orgOf(answered.json().data.responseId)).toEqual(expected('answer'));
    // An option naming no registered unit leaves the dim unset rather than refusing the respondent.
    const elsewhere = await client.post(`/r/v1/forms/${tenant.company.slug}/org-answer/responses`, { answers: { [byAnswer.q.where]: byAnswer.option('where', 'ELSEWHERE') } });
    expect(await orgOf(elsewhere.json().data.responseId)).toEqual({ dims: {}, orgUnitId: null, orgPath: null, orgSource: 'none' });
  });
});

describe('dead links', () => {
  it('revoke makes an open page dead: the next save and submit are 410 INVITE_GONE, and the draft is deleted', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('cond-revoke'));
    const inv = await invite(t, tenant.company.id, f.form.id);
    const client = respondentClient(t);
    const url = `/r/v1/invites/${inv.token}`;
    await client.get(url);
    await client.put(`${url}/draft`, { answers: { [f.q.note]: 'half-way' } });
    expect(await inviteState(inv.id)).toMatchObject({ drafts: 1 });

    const revoked = await t.post(tenant.token, `/v1/invites/${inv.id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(await inviteState(inv.id)).toMatchObject({ status: 'revoked', drafts: 0 });
    expectError(await client.put(`${url}/draft`, { answers: { [f.q.note]: 'more' } }), 410, 'INVITE_GONE');
    expectError(await client.post(`${url}/submit`, { answers: { [f.q.attended]: false } }), 410, 'INVITE_GONE');
    expectError(await client.get(url), 410, 'INVITE_GONE');
    expectError(await client.upload(`${url}/files`, { name: 'a.png', mime: 'image/png', data: PNG }), 410, 'INVITE_GONE');
    expect(await inviteState(inv.id)).toMatchObject({ status: 'revoked', drafts: 0, responded_at: null });
  });

  it('an expired invite is 410 INVITE_GONE (by the clock, before the sweep stores it)', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('cond-expiry'));
    const inv = await invite(t, tenant.company.id, f.form.id, { expiresAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString() });
    const client = respondentClient(t);
    expect((await client.get(`/r/v1/invites/${inv.token}`)).statusCode).toBe(200);
    t.clock.advance(3_600_000);
    expectError(await client.get(`/r/v1/invites/${inv.token}`), 410, 'INVITE_GONE');
    expectError(await client.put(`/r/v1/invites/${inv.token}/draft`, { answers: {} }), 410, 'INVITE_GONE');
    expectError(await client.post(`/r/v1/invites/${inv.token}/submit`, { answers: { [f.q.attended]: false } }), 410, 'INVITE_GONE');
  });

  it('a closed form is 410 FORM_CLOSED on both links', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('cond-closed', { isClosed: true }));
    const inv = await invite(t, tenant.company.id, f.form.id);
    const client = respondentClient(t);
    expectError(await client.get(`/r/v1/invites/${inv.token}`), 410, 'FORM_CLOSED');
    expectError(await client.post(`/r/v1/invites/${inv.token}/submit`, { answers: { [f.q.attended]: false } }), 410, 'FORM_CLOSED');
    expectError(await client.get(`/r/v1/forms/${tenant.company.slug}/cond-closed`), 410, 'FORM_CLOSED');
    expectError(await client.post(`/r/v1/forms/${tenant.company.slug}/cond-closed/responses`, { answers: { [f.q.attended]: false } }), 410, 'FORM_CLOSED');
  });

  it('an unknown token is 404 NOT_FOUND with one answer, whatever its shape', async () => {
    const client = respondentClient(t);
    const bodies = [];
    for (const token of ['A'.repeat(43), 'short', 'x'.repeat(99), '%00abc']) {
      const res = await client.get(`/r/v1/invites/${token}`);
      if (token === '%00abc') {
        expectError(res, 400, 'VALIDATION_ERROR');
        continue;
      }
      expectError(res, 404, 'NOT_FOUND');
      bodies.push(res.json().error.message);
      expectError(await client.put(`/r/v1/invites/${token}/draft`, { answers: {} }), 404, 'NOT_FOUND');
      expectError(await client.post(`/r/v1/invites/${token}/submit`, { answers: {} }), 404, 'NOT_FOUND');
    }
    expect(new Set(bodies).size).toBe(1);
  });
});

describe('public link', () => {
  it('submits with the prefill as respondent and link dims; response.created has inviteId null', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('cond-public'));
    const client = respondentClient(t);
    const url = `/r/v1/forms/${tenant.company.slug}/cond-public`;
    const form = await client.get(url);
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json().data).toMatchObject({ form: { id: f.form.id, slug: 'cond-public', name: 'Conditional' }, company: { slug: tenant.company.slug } });

    const res = await client.post(`${url}/responses`, {
      answers: { [f.q.attended]: true, [f.q.why]: 'Curious' },
      respondent: { name: ' Bia ', email: 'bia@school.edu' },
      dims: { cohort: ' Evening ' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { responseId } = res.json().data;
    const [created] = await events(tenant, 'response.created');
    expect(created.data).toEqual({
      formId: f.form.id,
      formName: 'Conditional',
      formSlug: 'cond-public',
      responseId,
      inviteId: null,
      completedAt: t.clock.now().toISOString(),
      respondent: { name: 'Bia', email: 'bia@school.edu', phone: null, externalId: null },
      answers: { [f.q.attended]: true, [f.q.why]: 'Curious' },
      dims: { cohort: 'Evening' },
      orgUnitId: null,
      orgPath: null,
      orgSource: 'none',
    });
    expect(await events(tenant, 'invite.responded')).toHaveLength(0);

    // Only dims with source link may come from the link; an anonymous submission has no respondent.
    const invited = await client.post(`${url}/responses`, { answers: { [f.q.attended]: false }, dims: { group: 'A' } });
    expectError(invited, 400, 'VALIDATION_ERROR');
    expect(invited.json().error.details.fields).toEqual([expect.objectContaining({ path: 'dims.group', code: 'unknown_field' })]);
    const anonymous = await client.post(`${url}/responses`, { answers: { [f.q.attended]: false } });
    expect((await t.get(tenant.token, `/v1/responses/${anonymous.json().data.responseId}`)).json().data.respondent).toBeNull();
  });

  it('is 403 INVITE_REQUIRED for a form that requires an invite or is not public', async () => {
    const tenant = await t.tenant();
    await keyedForm(t, tenant.company.id, CONDITIONAL('needs-invite', { requiresInvite: true }));
    await keyedForm(t, tenant.company.id, CONDITIONAL('not-public', { isPublic: false }));
    const client = respondentClient(t);
    for (const slug of ['needs-invite', 'not-public']) {
      expectError(await client.get(`/r/v1/forms/${tenant.company.slug}/${slug}`), 403, 'INVITE_REQUIRED');
      expectError(await client.post(`/r/v1/forms/${tenant.company.slug}/${slug}/responses`, { answers: {} }), 403, 'INVITE_REQUIRED');
    }
  });

  it("is 404 NOT_FOUND for an unknown slug and for another company's slug with this form's slug", async () => {
    const owner = await t.tenant();
    const other = await t.tenant();
    await keyedForm(t, owner.company.id, CONDITIONAL('owned'));
    const client = respondentClient(t);
    const ok = await client.get(`/r/v1/forms/${owner.company.slug}/owned`);
    expect(ok.statusCode).toBe(200);
    for (const url of [`/r/v1/forms/${other.company.slug}/owned`, `/r/v1/forms/${owner.company.slug}/nope`, `/r/v1/forms/no-such-company/owned`, `/r/v1/forms/BAD_SLUG/owned`]) {
      expectError(await client.get(url), 404, 'NOT_FOUND');
      expectError(await client.post(`${url}/responses`, { answers: {} }), 404, 'NOT_FOUND');
    }
  });
});

describe('uploads', () => {
  it('refuses a file too large, of a refused type, not matching its type, empty, or not multipart; a FILE answer must name an upload', async () => {
    const tenant = await t.tenant();
    const f = await everyTypeForm(t, tenant.company.id);
    const inv = await invite(t, tenant.company.id, f.form.id);
    const client = respondentClient(t);
    const url = `/r/v1/invites/${inv.token}/files`;

    expectError(await client.upload(url, { name: 'big.png', mime: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(MAX_UPLOAD_BYTES)]) }), 413, 'PAYLOAD_TOO_LARGE');
    const exe = await client.upload(url, { name: 'run.exe', mime: 'application/x-msdownload', data: Buffer.from('MZ\x90\x00') });
    expectError(exe, 400, 'VALIDATION_ERROR');
    expect(exe.json().error.details.fields[0]).toMatchObject({ path: 'file', code: 'invalid_value' });
    const fake = await client.upload(url, { name: 'fake.png', mime: 'image/png', data: Buffer.from('<script>alert(1)</script>') });
    expect(fake.json().error.details.fields[0]).toMatchObject({ path: 'file', code: 'invalid_format' });
    expectError(await client.upload(url, { name: 'empty.txt', mime: 'text/plain', data: Buffer.alloc(0) }), 400, 'VALIDATION_ERROR');
    expectError(await client.post(url, { file: 'x' }), 400, 'VALIDATION_ERROR');
    const { rows } = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM respondent_uploads WHERE invite_id = ${inv.id}`);
    expect(rows[0].n).toBe(0);

    const text = await client.upload(url, { name: '../../etc/notes.txt', mime: 'text/plain; charset=utf-8', data: Buffer.from('olá\n') });
    expect(text.statusCode, text.body).toBe(201);
    expect(text.json().data).toMatchObject({ name: 'notes.txt', mime: 'text/plain', size: 5 });

    const answers = everyTypeAnswers(f, { fileId: '019a2f4e-7c1d-7b3a-9f00-5d1e2a3b4c5d', name: 'x.png', size: 1, mime: 'image/png' });
    const unknown = await client.post(`/r/v1/invites/${inv.token}/submit`, { answers });
    expectError(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.json().error.details.fields).toEqual([expect.objectContaining({ path: `answers.${f.q.screenshots}[0].fileId`, code: 'unknown_reference' })]);
    const restated = await client.post(`/r/v1/invites/${inv.token}/submit`, { answers: everyTypeAnswers(f, { ...text.json().data, size: 999 }) });
    expect(restated.json().error.details.fields).toEqual([expect.objectContaining({ code: 'invalid_value' })]);
    expect(await inviteState(inv.id)).toMatchObject({ status: 'created', responded_at: null });
  });

  it('takes files on the public link for that page only (its submission token), and refuses a body of two files', async () => {
    const tenant = await t.tenant();
    const f = await everyTypeForm(t, tenant.company.id);
    const client = respondentClient(t);
    const url = `/r/v1/forms/${tenant.company.slug}/${f.form.slug}`;
    const pdf = { name: 'doc.pdf', mime: 'application/pdf', data: Buffer.from('%PDF-1.7\n%%EOF\n') };
    const withoutToken = await client.upload(`${url}/files`, pdf);
    expectError(withoutToken, 400, 'VALIDATION_ERROR');
    expect(withoutToken.json().error.details.fields[0]).toMatchObject({ path: 'submissionToken', code: 'required' });
    expectError(await client.upload(`${url}/files?submissionToken=forged.token`, pdf), 400, 'VALIDATION_ERROR');
    const { submissionToken } = (await client.get(url)).json().data;
    const uploaded = await client.upload(`${url}/files?submissionToken=${submissionToken}`, pdf);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = uploaded.json().data;
    // Another page's submit (or one without a token) cannot claim the file.
    const { submissionToken: otherPage } = (await client.get(url)).json().data;
    for (const extra of [{}, { submissionToken: otherPage }]) {
      const foreign = await client.post(`${url}/responses`, { answers: everyTypeAnswers(f, file), ...extra });
      expect(foreign.json().error.details.fields).toEqual([expect.objectContaining({ path: `answers.${f.q.screenshots}[0].fileId`, code: 'unknown_reference' })]);
    }
    const res = await client.post(`${url}/responses`, { answers: everyTypeAnswers(f, file), submissionToken });
    expect(res.statusCode, res.body).toBe(201);
    expect((await t.get(tenant.token, `/v1/responses/${res.json().data.responseId}`)).json().data.answers[f.q.screenshots]).toEqual([file]);

    // A public upload is not a file of a personal link.
    const inv = await invite(t, tenant.company.id, f.form.id);
    const other = await client.post(`/r/v1/invites/${inv.token}/submit`, { answers: everyTypeAnswers(f, file) });
    expect(other.json().error.details.fields).toEqual([expect.objectContaining({ path: `answers.${f.q.screenshots}[0].fileId`, code: 'unknown_reference' })]);

    const boundary = 'b0undary';
    const part = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.txt"\r\nContent-Type: text/plain\r\n\r\n${name}\r\n`;
    const two = await client.call({
      method: 'POST',
      url: `/r/v1/invites/${inv.token}/files`,
      payload: `${part('a')}${part('b')}--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expectError(two, 400, 'VALIDATION_ERROR');
    expect(two.json().error.details.fields[0]).toMatchObject({ path: 'file', code: 'too_long' });
  });

  it('uses a file in one response only; prunes a public page\'s unused uploads once its token expires, a personal link\'s after a week without a draft', async () => {
    const tenant = await t.tenant();
    const f = await everyTypeForm(t, tenant.company.id);
    const client = respondentClient(t);
    const publicUrl = `/r/v1/forms/${tenant.company.slug}/${f.form.slug}`;
    const upload = async (url: string, query = '') => (await client.upload(`${url}/files${query}`, { name: 'a.png', mime: 'image/png', data: PNG })).json().data;
    const onDisk = (fileId: string) => readFile(join(t.ctx.config.dataDir, 'uploads', tenant.company.id, fileId)).then(() => true, () => false);
    const pageToken = async () => (await client.get(publicUrl)).json().data.submissionToken as string;

    const first = await pageToken();
    const used = await upload(publicUrl, `?submissionToken=${first}`);
    expect((await client.post(`${publicUrl}/responses`, { answers: everyTypeAnswers(f, used), submissionToken: first })).statusCode).toBe(201);
    const reused = await client.post(`${publicUrl}/responses`, { answers: everyTypeAnswers(f, used), submissionToken: await pageToken() });
    expect(reused.json().error.details.fields).toEqual([expect.objectContaining({ path: `answers.${f.q.screenshots}[0].fileId`, code: 'unknown_reference' })]);

    const abandoned = await upload(publicUrl, `?submissionToken=${await pageToken()}`);
    const drafting = await invite(t, tenant.company.id, f.form.id);
    const inDraft = await upload(`/r/v1/invites/${drafting.token}`);
    await client.put(`/r/v1/invites/${drafting.token}/draft`, { answers: { [f.q.screenshots]: [inDraft] } });
    const revoked = await invite(t, tenant.company.id, f.form.id);
    const ofRevoked = await upload(`/r/v1/invites/${revoked.token}`);
    await client.put(`/r/v1/invites/${revoked.token}/draft`, { answers: { [f.q.screenshots]: [ofRevoked] } });
    await t.post(tenant.token, `/v1/invites/${revoked.id}/revoke`);

    const kept = async () => {
      const { rows } = await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM respondent_uploads WHERE company_id = ${tenant.company.id}`);
      return rows.map((row) => row.id).sort();
    };
    // The sweep is global (other tests' uploads may go too): this company's rows tell what it did here.
    const tokenHours = t.ctx.config.publicLinkTokenHours;
    t.clock.advance(tokenHours * 3_600_000 - 60_000);
    await pruneUploads.sweep(t.ctx);
    expect(await kept()).toEqual([used, abandoned, inDraft, ofRevoked].map((file) => file.fileId).sort());
    t.clock.advance(60_000);
    await pruneUploads.sweep(t.ctx);
    expect(await kept()).toEqual([used, inDraft, ofRevoked].map((file) => file.fileId).sort());
    expect(await onDisk(abandoned.fileId)).toBe(false);
    t.clock.advance(6 * 86_400_000 - tokenHours * 3_600_000);
    await pruneUploads.sweep(t.ctx);
    expect(await kept()).toEqual([used, inDraft, ofRevoked].map((file) => file.fileId).sort());
    t.clock.advance(2 * 86_400_000);
    expect(await pruneUploads.sweep(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await kept()).toEqual([used.fileId, inDraft.fileId].sort());
    expect(await Promise.all([used, inDraft, abandoned, ofRevoked].map((file) => onDisk(file.fileId)))).toEqual([true, true, false, false]);
  });

  it('refuses an upload to a form without a FILE question', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('no-files'));
    const inv = await invite(t, tenant.company.id, f.form.id);
    const res = await respondentClient(t).upload(`/r/v1/invites/${inv.token}/files`, { name: 'a.png', mime: 'image/png', data: PNG });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.json().error.details.fields[0]).toMatchObject({ path: 'file', code: 'not_applicable' });
  });
});

describe('input, limits and the document', () => {
  it('answers malformed bodies and parameters with VALIDATION_ERROR, never a 5xx', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, CONDITIONAL('cond-malformed'));
    const inv = await invite(t, tenant.company.id, f.form.id);
    const client = respondentClient(t);
    const url = `/r/v1/invites/${inv.token}`;
    const cases = [
      client.put(`${url}/draft`, { answers: {}, extra: 1 }),
      client.put(`${url}/draft`, { answers: [] }),
      client.put(`${url}/draft`, { answers: {}, sectionIndex: -1 }),
      client.put(`${url}/draft`, { answers: {}, sectionIndex: 1.5 }),
      client.post(`${url}/submit`, {}),
      client.post(`${url}/submit`, { answers: 'x' }),
      client.post(`${url}/submit`, { answers: { [f.q.attended]: 'true\u0000' } }),
      client.call({ method: 'POST', url: `${url}/submit`, payload: '{"answers":', headers: { 'content-type': 'application/json' } }),
      client.call({ method: 'POST', url: `${url}/submit`, payload: 'answers=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      client.get(`${url}?debug=1`),
      client.post(`/r/v1/forms/${tenant.company.slug}/cond-malformed/responses`, { answers: {}, respondent: { name: 'x', role: 'admin' } }),
      client.post(`/r/v1/forms/${tenant.company.slug}/cond-malformed/responses`, { answers: {}, dims: { cohort: { nested: true } } }),
    ];
    for (const res of await Promise.all(cases)) expectError(res, 400, 'VALIDATION_ERROR');
    const big = await client.post(`${url}/submit`, { answers: { [f.q.note]: 'x'.repeat(1024 * 1024) } });
    expectError(big, 413, 'PAYLOAD_TOO_LARGE');
    // Under the body limit but over what a response.created event can carry.
    const heavy = await client.put(`${url}/draft`, { answers: { [f.q.note]: 'x'.repeat(MAX_ANSWERS_BYTES) } });
    expectError(heavy, 413, 'PAYLOAD_TOO_LARGE');
    expect(heavy.json().error.details).toMatchObject({ limit: MAX_ANSWERS_BYTES });
    expect(await inviteState(inv.id)).toMatchObject({ status: 'created', drafts: 0 });
  });

  it('limits requests per client address with 429 RATE_LIMITED and retry-after', async () => {
    const address = clientAddress();
    const client = respondentClient(t, address);
    let last;
    for (let i = 0; i < RESPONDENT_REQUESTS_PER_MIN; i++) last = await client.get(`/r/v1/invites/${'A'.repeat(43)}`);
    expect(last!.headers['ratelimit-remaining']).toBe('0');
    const limited = await client.get(`/r/v1/invites/${'A'.repeat(43)}`);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await respondentClient(t).get(`/r/v1/invites/${'A'.repeat(43)}`)).statusCode).toBe(404);
  });

  it('documents the respondent operations under the Respondent tag, with no API key and their own server', async () => {
    const doc = (await t.get(null, '/v1/openapi.json')).json();
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).filter(([path]) => path.startsWith('/r/v1/'));
    expect(operations.map(([path]) => path).sort()).toEqual([
      '/r/v1/forms/{companySlug}/{formSlug}',
      '/r/v1/forms/{companySlug}/{formSlug}/files',
      '/r/v1/forms/{companySlug}/{formSlug}/responses',
      '/r/v1/invites/{token}',
      '/r/v1/invites/{token}/draft',
      '/r/v1/invites/{token}/files',
      '/r/v1/invites/{token}/submit',
    ]);
    for (const [, methods] of operations) {
      for (const operation of Object.values(methods)) {
        expect(operation.tags).toEqual(['Respondent']);
        expect(operation.security).toEqual([]);
        expect(operation.servers).toEqual([{ url: 'http://localhost:3000', description: 'This installation' }]);
      }
    }
  });
});
