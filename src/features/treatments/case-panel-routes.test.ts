import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser, type PanelClient, type PanelSignIn } from '../../../test/panel.js';
import { createFlowSurvey, respond } from '../../../test/treatments.js';

let t: TestApp;
let member: PanelSignIn & { client: PanelClient };
beforeAll(async () => {
  t = await startTestApp();
  member = await signInPanelUser(t, { permissions: ['treatments'] });
});
afterAll(async () => t?.close());

const get = (url: string) => member.client.get(member, `/panel/api${url}`);
const post = (url: string, body?: object) => member.client.post(member, `/panel/api${url}`, body);
const eventTypes = async () =>
  (await t.ctx.pool.query<{ type: string }>('SELECT type FROM events WHERE company_id = $1 ORDER BY id', [member.companyId])).rows.map((r) => r.type);

describe('panel treatment cases', () => {
  it('counts the board, reads a case with its answers and time zone, and closes, reopens and advances it with audits', async () => {
    const survey = await createFlowSurvey(t, member.companyId!, { timeZone: 'America/Sao_Paulo' });
    await respond(t, survey, 1);
    await respond(t, survey, 2);
    expect((await get('/treatments/board')).json().data).toEqual([
      { formId: survey.form.id, formName: survey.form.name, flowKey: 'low-rating', flowName: 'Low rating follow-up', open: 2, overdue: 0, closed: 0 },
    ]);
    const list = (await get(`/treatments?status=open&flowKey=low-rating&formId=${survey.form.id}&limit=1`)).json();
    expect(list.meta).toMatchObject({ total: 2, hasMore: true });
    expect((await get('/treatments?overdue=true')).json().data).toEqual([]);
    const id = list.data[0].id;

    const page = (await get(`/treatments/${id}`)).json().data;
    expect(page).toMatchObject({ timeZone: 'America/Sao_Paulo', status: 'open', history: [{ action: 'opened' }] });
    expect(page.response.answers).toContainEqual({ question: expect.any(String), answer: '2' });

    const noReason = await post(`/treatments/${id}/close`, { outcome: 'resolved' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['outcome', 'reason']);
    const closed = await post(`/treatments/${id}/close`, { outcome: 'other', reason: 'Moved away' });
    expect(closed.json().data).toMatchObject({ status: 'closed', outcome: 'other', reason: 'Moved away' });
    expect((await post(`/treatments/${id}/close`, { outcome: 'other', reason: 'again' })).statusCode).toBe(400);
    const before = await eventTypes();
    const reopened = await post(`/treatments/${id}/reopen`);
    expect(reopened.json().data).toMatchObject({ status: 'open', outcome: null, history: [{ action: 'opened' }, { action: 'closed' }, { action: 'reopened' }] });
    expect(await eventTypes()).toEqual(before);
    expect((await post(`/treatments/${id}/advance`)).json().data).toMatchObject({ stepIndex: 1, status: 'open' });
    const { rows } = await t.ctx.pool.query('SELECT action FROM audit_records WHERE company_id = $1 AND action LIKE $2 ORDER BY created_at, id', [member.companyId, 'treatment.%']);
    expect(rows.map((r) => r.action)).toEqual(['treatment.closed', 'treatment.reopened', 'treatment.advanced']);
    expect((await get('/treatments/0190a000-0000-7000-8000-000000000000')).statusCode).toBe(404);
  });
});
