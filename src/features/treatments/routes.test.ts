import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createFlowSurvey, respond } from '../../../test/treatments.js';
import { closeCase } from './close-case.js';
import { advanceCase } from './advance-case.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('GET /v1/treatments', () => {
  it('lists cases newest first with cursor pages, status and formId filters', async () => {
    const { company, token } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    for (let i = 0; i < 5; i++) await respond(t, survey, 1, `2026-03-02T09:0${i}:00.000Z`);
    const first = (await t.get(token, '/v1/treatments?limit=2')).json();
    expect(first.data.map((c: { number: number }) => c.number)).toEqual([5, 4]);
    expect(first.meta).toMatchObject({ limit: 2, hasMore: true, total: 5 });
    const second = (await t.get(token, `/v1/treatments?limit=2&cursor=${encodeURIComponent(first.meta.nextCursor)}`)).json();
    expect(second.data.map((c: { number: number }) => c.number)).toEqual([3, 2]);
    expect(second.meta.total).toBeUndefined();

    const id = first.data[1].id;
    await closeCase(t.ctx.db, t.ctx, { companyId: company.id, id, outcome: 'duplicate', reason: 'Same as #5' });
    const closed = (await t.get(token, '/v1/treatments?status=closed')).json();
    expect(closed.data).toHaveLength(1);
    expect(closed.data[0]).toMatchObject({
      id, number: 4, status: 'closed', outcome: 'duplicate', reason: 'Same as #5', dueAt: null, formName: 'Course survey', flowKey: 'low-rating',
      stepIndex: 0, stepName: 'Call the respondent', responsible: 'coordinator', overdue: false, chainedFromId: null,
    });
    expect(closed.data[0]).not.toHaveProperty('answers');
    expect((await t.get(token, '/v1/treatments?status=open')).json().meta.total).toBe(4);
    expect((await t.get(token, `/v1/treatments?formId=${survey.form.id}`)).json().meta.total).toBe(5);
    expect((await t.get(token, '/v1/treatments?formId=0190a000-0000-7000-8000-000000000000')).json().data).toEqual([]);
    expect((await t.get(token, '/v1/treatments?formId=nope')).json().meta.total).toBe(0);
  });

  it('refuses a cursor used with other filters or by another company, page, and bad filters', async () => {
    const { company, token } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await respond(t, survey, 1);
    await respond(t, survey, 1);
    const { nextCursor } = (await t.get(token, '/v1/treatments?limit=1')).json().meta;
    const other = await t.tenant();
    const code = async (tok: string, url: string) => (await t.get(tok, url)).json().error?.code;
    expect(await code(token, `/v1/treatments?limit=1&status=open&cursor=${encodeURIComponent(nextCursor)}`)).toBe('INVALID_CURSOR');
    expect(await code(other.token, `/v1/treatments?limit=1&cursor=${encodeURIComponent(nextCursor)}`)).toBe('INVALID_CURSOR');
    expect(await code(token, '/v1/treatments?page=2')).toBe('PAGE_NOT_SUPPORTED');
    expect(await code(token, '/v1/treatments?status=pending')).toBe('VALIDATION_ERROR');
    expect(await code(token, '/v1/treatments?limit=0')).toBe('VALIDATION_ERROR');
  });

  it("never shows another company's cases", async () => {
    const { company } = await t.tenant();
    await respond(t, await createFlowSurvey(t, company.id), 1);
    const other = await t.tenant();
    expect((await t.get(other.token, '/v1/treatments')).json()).toMatchObject({ success: true, data: [], meta: { total: 0 } });
  });
});

describe('GET /v1/treatments/{id}', () => {
  it('answers the case with its history, oldest first', async () => {
    const { company, token } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    const responseId = await respond(t, survey, 2, '2026-03-02T09:00:00.000Z');
    const { id } = (await t.get(token, '/v1/treatments')).json().data[0];
    t.clock.set('2026-03-03T09:00:00.000Z');
    await advanceCase(t.ctx.db, t.ctx, { companyId: company.id, id });
    const res = await t.get(token, `/v1/treatments/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id, number: 1, formId: survey.form.id, formName: 'Course survey', flowKey: 'low-rating', responseId, chainedFromId: null,
      status: 'open', stepIndex: 1, stepName: 'Report back', responsible: 'ana@school.edu', dueAt: '2026-03-06T23:59:59.999Z', overdue: false,
      outcome: null, reason: null, orgUnitId: null, orgPath: null, openedAt: '2026-03-02T09:00:00.000Z', closedAt: null,
      steps: [
        { name: 'Call the respondent', responsible: 'coordinator', dueInWorkingDays: 2 },
        { name: 'Report back', responsible: 'ana@school.edu', dueInWorkingDays: 3 },
      ],
      history: [
        { action: 'opened', stepIndex: 0, outcome: null, reason: null, at: '2026-03-02T09:00:00.000Z' },
        { action: 'advanced', stepIndex: 1, outcome: null, reason: null, at: '2026-03-03T09:00:00.000Z' },
      ],
    });
  });

  it("answers 404 NOT_FOUND for another company's case, a missing one and a non-UUID id", async () => {
    const { company } = await t.tenant();
    await respond(t, await createFlowSurvey(t, company.id), 1);
    const { rows } = await t.ctx.pool.query('SELECT id FROM treatments WHERE company_id = $1', [company.id]);
    const other = await t.tenant();
    for (const id of [rows[0].id, '0190a000-0000-7000-8000-000000000000', 'nope']) {
      const res = await t.get(other.token, `/v1/treatments/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });
});
