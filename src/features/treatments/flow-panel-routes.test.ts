/** The form's treatment flows through /panel/api: list as files, add, replace, remove; checks, CSRF, permission, tenancy, audit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser, type PanelClient, type PanelSignIn } from '../../../test/panel.js';
import { createSurvey } from '../../../test/responses.js';
import { LOW_RATING_FLOW } from '../../../test/treatments.js';

let t: TestApp;
let tenant: Awaited<ReturnType<TestApp['tenant']>>;
let editor: PanelSignIn;
let panel: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.tenant();
  const signed = await signInPanelUser(t, { companyId: tenant.company.id, permissions: ['forms'] });
  editor = signed;
  panel = signed.client;
});
afterAll(async () => t?.close());

const CHECKED = { ...LOW_RATING_FLOW, when: { any: [{ question: 'rating', lte: 2 }, { question: 'comment', answered: true }] }, effectivenessCheck: { afterWorkingDays: 10 } };

describe('panel treatment flows', () => {
  it('adds a flow, lists it as its file, replaces it by key and removes it, each act audited', async () => {
    const { form } = await createSurvey(t, tenant.company.id);
    const url = `/panel/api/forms/${form.id}/flows`;
    expect((await panel.get(editor, url)).json().data).toEqual([]);

    const added = await panel.put(editor, url, { flow: CHECKED });
    expect(added.statusCode, added.body).toBe(200);
    const [flow] = added.json().data;
    expect(flow).toMatchObject({ key: 'low-rating', name: 'Low rating follow-up' });
    // the file as written, conditions back in keys; a date check without failsWhen fails on the flow's own condition
    expect(flow.file).toEqual({ ...CHECKED, effectivenessCheck: { afterWorkingDays: 10, failsWhen: CHECKED.when } });
    const stored = (await t.ctx.pool.query('SELECT definition FROM treatment_flows WHERE form_id = $1', [form.id])).rows[0].definition;
    expect(JSON.stringify(stored)).not.toContain('"rating"');

    const replaced = await panel.put(editor, url, { flow: { ...LOW_RATING_FLOW, name: 'Renamed' } });
    expect(replaced.json().data.map((f: { name: string }) => f.name)).toEqual(['Renamed']);
    expect(replaced.json().data[0].file.effectivenessCheck).toBeUndefined();
    expect((await panel.get(editor, url)).json().data).toHaveLength(1);

    const removed = await panel.delete(editor, `${url}/low-rating`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data).toEqual([]);
    expect((await panel.delete(editor, `${url}/low-rating`)).statusCode).toBe(404);

    const audits = (await t.ctx.pool.query("SELECT action, actor_email, details FROM audit_records WHERE company_id = $1 AND action LIKE 'form.flow.%' ORDER BY created_at, id", [tenant.company.id])).rows;
    expect(audits.map((a) => [a.action, a.actor_email, a.details.key])).toEqual([
      ['form.flow.saved', editor.user.email, 'low-rating'],
      ['form.flow.saved', editor.user.email, 'low-rating'],
      ['form.flow.removed', editor.user.email, 'low-rating'],
    ]);
  });

  it('reports every fault of the file by field and stores nothing', async () => {
    const { form } = await createSurvey(t, tenant.company.id);
    const url = `/panel/api/forms/${form.id}/flows`;
    const res = await panel.put(editor, url, { flow: { key: 'bad key!', name: ' ', when: { question: 'nope', equals: 1 }, steps: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    const paths = res.json().error.details.fields.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['key', 'name', 'steps', 'when.question']));
    expect((await panel.get(editor, url)).json().data).toEqual([]);
  });

  it('refuses without CSRF or the forms permission, and hides other companies\' forms', async () => {
    const { form } = await createSurvey(t, tenant.company.id);
    const url = `/panel/api/forms/${form.id}/flows`;
    expect((await panel.put(editor, url, { flow: LOW_RATING_FLOW }, { csrf: false })).statusCode).toBe(403);
    const reader = await signInPanelUser(t, { companyId: tenant.company.id, permissions: ['responses', 'treatments'] });
    expect((await reader.client.get(reader, url)).statusCode).toBe(403);
    expect((await reader.client.put(reader, url, { flow: LOW_RATING_FLOW })).statusCode).toBe(403);
    const other = await t.tenant();
    const stranger = await signInPanelUser(t, { companyId: other.company.id, permissions: ['forms'] });
    expect((await stranger.client.get(stranger, url)).statusCode).toBe(404);
    expect((await stranger.client.put(stranger, url, { flow: LOW_RATING_FLOW })).statusCode).toBe(404);
    expect((await panel.get(editor, url)).json().data).toEqual([]);
  });
});
