import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser, type PanelClient, type PanelSignIn } from '../../../test/panel.js';
import { respondentClient } from '../../../test/respondent.js';
import { addResponses, createSurvey } from '../../../test/responses.js';
import { recordResponse } from '../responses/record-response.js';
import { findForm } from './find-form.js';

let t: TestApp;
let tenant: Awaited<ReturnType<TestApp['tenant']>>;
let editor: PanelSignIn & { client: PanelClient };
let panel: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.tenant();
  editor = await signInPanelUser(t, { companyId: tenant.company.id, permissions: ['forms', 'responses'] });
  panel = editor.client;
});
afterAll(async () => t?.close());

const audits = async (action: string) =>
  (await t.ctx.pool.query('SELECT actor_email, details FROM audit_records WHERE company_id = $1 AND action = $2 ORDER BY created_at, id', [tenant.company.id, action])).rows;

const CHOICE_FORM = (extra: object[] = []) => ({
  slug: 'campus-survey',
  name: 'Campus survey',
  settings: { isPublic: true },
  sections: [
    {
      key: 'main',
      name: 'Main',
      questions: [
        { key: 'campus', name: 'Campus', type: 'RADIO', options: [{ key: 'NORTH', name: 'North' }, { key: 'SOUTH', name: 'South' }] },
        { key: 'why', name: 'Why?', type: 'TEXT', visibleIf: { question: 'campus', equals: 'NORTH' } },
        ...extra,
      ],
    },
  ],
});

describe('panel forms', () => {
  it('creates, finds, duplicates, closes, reopens and deletes a form, each act audited and versioned', async () => {
    const created = await panel.post(editor, '/panel/api/forms', { name: 'Exit survey', slug: 'exit-survey' });
    expect(created.statusCode, created.body).toBe(201);
    const { form, definition, publicUrl } = created.json().data;
    expect(form).toMatchObject({ name: 'Exit survey', slug: 'exit-survey', isClosed: false, isPublic: false, responseCount: 0, lastResponseAt: null });
    expect(definition).toMatchObject({ slug: 'exit-survey', sections: [{ key: 'section-1', questions: [] }] });
    expect(publicUrl).toMatch(/\/f\/[^/]+\/exit-survey$/);

    const again = await panel.post(editor, '/panel/api/forms', { name: 'Other', slug: 'exit-survey' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.details.fields).toEqual([expect.objectContaining({ path: 'slug', code: 'not_unique' })]);
    const bad = await panel.post(editor, '/panel/api/forms', { name: ' ', slug: 'Not A Slug' });
    expect(bad.json().error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['name', 'slug']);

    const copy = await panel.post(editor, `/panel/api/forms/${form.id}/duplicate`);
    expect(copy.statusCode).toBe(201);
    expect(copy.json().data.form).toMatchObject({ slug: 'exit-survey-copy', name: 'Exit survey (copy)' });
    expect(copy.json().data.definition.sections[0].id).not.toBe(definition.sections[0].id);

    const searched = await panel.get(editor, '/panel/api/forms?search=EXIT&limit=10');
    expect(searched.json().data.map((f: { slug: string }) => f.slug).sort()).toEqual(['exit-survey', 'exit-survey-copy']);
    expect(searched.json().meta).toEqual({ page: 1, limit: 10, total: 2 });
    expect((await panel.get(editor, '/panel/api/forms?search=%25')).json().data).toEqual([]);

    const closed = await panel.post(editor, `/panel/api/forms/${form.id}/close`);
    expect(closed.json().data.form.isClosed).toBe(true);
    expect((await panel.get(editor, '/panel/api/forms?status=closed')).json().data.map((f: { id: string }) => f.id)).toEqual([form.id]);
    expect((await panel.post(editor, `/panel/api/forms/${form.id}/reopen`)).json().data.form.isClosed).toBe(false);

    const versions = (await panel.get(editor, `/panel/api/forms/${form.id}/versions`)).json().data;
    expect(versions.map((v: { version: number; actorEmail: string; changes: object }) => [v.version, v.actorEmail, v.changes])).toEqual([
      [3, editor.user.email, { added: [], removed: [], changed: ['settings.isClosed'] }],
      [2, editor.user.email, { added: [], removed: [], changed: ['settings.isClosed'] }],
      [1, editor.user.email, { added: [], removed: [], changed: [] }],
    ]);

    const deleted = await panel.delete(editor, `/panel/api/forms/${form.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await panel.get(editor, `/panel/api/forms/${form.id}`)).statusCode).toBe(404);
    expect((await audits('form.deleted')).map((a) => a.details.formId)).toEqual([form.id]);
    expect((await audits('form.created')).length).toBe(1);
  });

  it('closes a form at its closing date: links answer 410, lists show it closed, reopening drops the passed date', async () => {
    const created = (await panel.post(editor, '/panel/api/forms', { name: 'Term feedback', slug: 'term-feedback' })).json().data;
    const id = created.form.id;
    const link = `/r/v1/forms/${tenant.company.slug}/term-feedback`;
    const respondent = respondentClient(t);
    const closesAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const save = (settings: object) => panel.put(editor, `/panel/api/forms/${id}`, { definition: { ...created.definition, settings: { ...created.definition.settings, isPublic: true, ...settings } } });

    const bad = await save({ closesAt: 'next friday' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields).toEqual([expect.objectContaining({ path: 'settings.closesAt', code: 'invalid_format' })]);
    // an offset is read as the instant it names
    expect((await save({ closesAt: closesAt.replace('Z', '+00:00') })).statusCode).toBe(200);
    const detail = (await panel.get(editor, `/panel/api/forms/${id}`)).json().data;
    expect(detail.definition.settings.closesAt).toBe(closesAt);
    expect(detail.form.isClosed).toBe(false);
    expect((await respondent.get(link)).statusCode).toBe(200);

    t.clock.advance(3_600_000);
    const gone = await respondent.get(link);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error.code).toBe('FORM_CLOSED');
    expect((await panel.get(editor, `/panel/api/forms/${id}`)).json().data.form.isClosed).toBe(true);
    expect((await panel.get(editor, '/panel/api/forms?status=closed&search=term')).json().data.map((f: { id: string }) => f.id)).toEqual([id]);
    expect((await panel.get(editor, '/panel/api/forms?status=open&search=term')).json().data).toEqual([]);
    const listed = (await t.get(tenant.token, '/v1/forms?limit=100')).json().data.find((f: { id: string }) => f.id === id);
    expect(listed.isClosed).toBe(true);

    const reopened = (await panel.post(editor, `/panel/api/forms/${id}/reopen`)).json().data;
    expect(reopened.form.isClosed).toBe(false);
    expect(reopened.definition.settings.closesAt).toBeUndefined();
    expect((await respondent.get(link)).statusCode).toBe(200);
    const versions = (await panel.get(editor, `/panel/api/forms/${id}/versions`)).json().data;
    expect(versions[0].changes.removed).toEqual(['settings.closesAt']);
    expect(versions[1].changes.added).toEqual(['settings.closesAt']);
  });

  it('refuses to delete a form with responses and lists its count and last response', async () => {
    const survey = await createSurvey(t, tenant.company.id);
    await addResponses(t, survey, 2, { answers: { [survey.ratingId]: 4 } });
    const refused = await panel.delete(editor, `/panel/api/forms/${survey.form.id}`);
    expect(refused.statusCode).toBe(400);
    expect(await findForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, id: survey.form.id })).not.toBeNull();
    const listed = (await panel.get(editor, '/panel/api/forms?search=course-survey')).json().data[0];
    expect(listed).toMatchObject({ responseCount: 2, lastResponseAt: t.clock.now().toISOString() });
  });

  it('saves keeping ids, asks before dropping an answered option, keeps its stored answers, and moves updatedAt', async () => {
    const created = (await panel.post(editor, '/panel/api/forms', { name: 'Campus survey', slug: 'campus-survey' })).json().data;
    const first = await panel.put(editor, `/panel/api/forms/${created.form.id}`, { definition: CHOICE_FORM() });
    expect(first.statusCode, first.body).toBe(200);
    const saved = first.json().data.detail;
    const campus = saved.definition.sections[0].questions[0];
    const north = campus.options[0];

    const form = (await findForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, id: created.form.id }))!;
    const response = await t.ctx.db.transaction((tx) => recordResponse(tx, t.ctx, { form, answers: { [campus.id]: north.id } }));

    // a file with an id that is not the key's is refused (never re-point stored answers)
    const foreign = structuredClone(saved.definition);
    foreign.sections[0].questions[0].options[1].id = '01900000-0000-7000-8000-000000000000';
    const refusedId = await panel.put(editor, `/panel/api/forms/${created.form.id}`, { definition: foreign });
    expect(refusedId.json().error.details.fields).toEqual([expect.objectContaining({ path: 'sections[0].questions[0].options[1].id', code: 'invalid_value' })]);

    // rename the question, drop the answered option NORTH (the condition on it goes too), add a question
    const edited = structuredClone(saved.definition);
    edited.sections[0].questions[0].name = 'Which campus?';
    edited.sections[0].questions[0].options = [campus.options[1], { key: 'EAST', name: 'East' }];
    delete edited.sections[0].questions[1].visibleIf;
    edited.sections[0].questions.push({ key: 'nps', name: 'Recommend us?', type: 'NPS' });

    const check = await panel.put(editor, `/panel/api/forms/${created.form.id}`, { definition: edited, dryRun: true });
    expect(check.json().data).toEqual({ status: 'checked', detail: null, answeredRemovals: [{ kind: 'option', key: 'campus.NORTH', name: 'North', responses: 1 }] });
    const unconfirmed = await panel.put(editor, `/panel/api/forms/${created.form.id}`, { definition: edited });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().error.details.fields).toEqual([{ path: 'confirmRemovals', code: 'required', message: expect.stringContaining('campus.NORTH (1)') }]);

    const before = (await t.get(tenant.token, '/v1/forms')).json().data.find((f: { id: string }) => f.id === created.form.id).updatedAt;
    t.clock.advance(60_000);
    const confirmed = await panel.put(editor, `/panel/api/forms/${created.form.id}`, { definition: edited, confirmRemovals: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = confirmed.json().data.detail.definition.sections[0].questions;
    expect(after[0]).toMatchObject({ id: campus.id, name: 'Which campus?' });
    expect(after[0].options[0].id).toBe(campus.options[1].id);
    const listed = (await t.get(tenant.token, '/v1/forms')).json().data.find((f: { id: string }) => f.id === created.form.id);
    expect(Date.parse(listed.updatedAt)).toBeGreaterThan(Date.parse(before));

    const stored = await t.get(tenant.token, `/v1/responses/${response.id}`);
    expect(stored.statusCode).toBe(200);
    expect(stored.json().data.answers).toEqual({ [campus.id]: north.id });

    const versions = (await panel.get(editor, `/panel/api/forms/${created.form.id}/versions`)).json().data;
    expect(versions[0].changes).toEqual({ added: ['question campus.EAST', 'question nps'], removed: ['question campus.NORTH'], changed: ['question campus', 'question why'] });

    const slugChange = await panel.put(editor, `/panel/api/forms/${created.form.id}`, { definition: { ...edited, slug: 'other' } });
    expect(slugChange.json().error.details.fields).toEqual([expect.objectContaining({ path: 'slug', code: 'invalid_value' })]);
    const unchanged = await panel.put(editor, `/panel/api/forms/${created.form.id}`, { definition: confirmed.json().data.detail.definition });
    expect(unchanged.json().data.status).toBe('unchanged');
  });

  it('adds, lists and resets alert rules', async () => {
    const survey = await createSurvey(t, tenant.company.id);
    const { responseCount } = (await findForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, id: survey.form.id }))!;
    const added = await panel.post(editor, `/panel/api/forms/${survey.form.id}/goals`, { goal: responseCount + 1 });
    expect(added.statusCode).toBe(201);
    expect(added.json().data).toMatchObject({ goal: responseCount + 1, armed: true, reachedAt: null });
    await addResponses(t, survey, 1, { answers: { [survey.ratingId]: 5 } });
    const [fired] = (await panel.get(editor, `/panel/api/forms/${survey.form.id}/goals`)).json().data;
    expect(fired).toMatchObject({ armed: false, reachedCount: responseCount + 1 });
    const reset = await panel.post(editor, `/panel/api/goals/${fired.id}/reset`);
    expect(reset.json().data).toMatchObject({ armed: true, reachedCount: responseCount + 1 });
    expect((await panel.post(editor, `/panel/api/forms/${survey.form.id}/goals`, { goal: 0 })).statusCode).toBe(400);
  });

  it('lets a member with responses list forms but not open or change one', async () => {
    const reader = await signInPanelUser(t, { companyId: tenant.company.id, permissions: ['responses'] });
    const survey = await createSurvey(t, tenant.company.id);
    expect((await reader.client.get(reader, '/panel/api/forms')).statusCode).toBe(200);
    expect((await reader.client.get(reader, `/panel/api/forms/${survey.form.id}`)).statusCode).toBe(403);
    expect((await reader.client.post(reader, '/panel/api/forms', { name: 'X', slug: 'x' })).statusCode).toBe(403);
    const editorOnly = await signInPanelUser(t, { companyId: tenant.company.id, permissions: ['forms'] });
    expect((await editorOnly.client.get(editorOnly, '/panel/api/forms')).statusCode).toBe(403);
  });
});
