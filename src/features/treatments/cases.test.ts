import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { addResponses } from '../../../test/responses.js';
import { deliveryRows, subscribe } from '../../../test/webhooks.js';
import { createFlowSurvey, respond } from '../../../test/treatments.js';
import { allTasks } from '../../platform/jobs/tasks.js';
import { TREATMENT_EVENT_SCHEMAS } from '../events/catalog.js';
import { advanceCase } from './advance-case.js';
import { closeCase } from './close-case.js';
import { addHoliday, removeHoliday } from './holidays.js';
import { openCasesForResponse } from './open-case.js';
import { reopenCase } from './reopen-case.js';
import { sweepOverdue } from './sweep-overdue.js';
import { updateCompanySettings } from '../companies/company-settings.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

async function events(companyId: string) {
  const { rows } = await t.ctx.pool.query<{ type: string; data: Record<string, unknown> }>(
    // within one clock instant, the life-cycle order
    `SELECT type, data FROM events WHERE company_id = $1 AND type LIKE 'treatment.%'
     ORDER BY occurred_at, array_position(ARRAY['treatment.opened', 'treatment.overdue', 'treatment.closed'], type), id`,
    [companyId],
  );
  for (const row of rows) expect(Value.Check(TREATMENT_EVENT_SCHEMAS[row.type as keyof typeof TREATMENT_EVENT_SCHEMAS], row.data)).toBe(true);
  return rows;
}

async function casesOf(companyId: string) {
  const { rows } = await t.ctx.pool.query('SELECT id, number, response_id, status, step_index FROM treatments WHERE company_id = $1 ORDER BY number', [companyId]);
  return rows as { id: string; number: number; response_id: string | null; status: string; step_index: number }[];
}

describe('opening a case from a response', () => {
  it('opens one case for a response that satisfies the flow, with treatment.opened carrying the spec data', async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id, { timeZone: 'America/Sao_Paulo' });
    const unit = survey.courses.HIST101;
    const [responseId] = await addResponses(t, survey, 1, {
      at: '2026-03-06T15:00:00.000Z', // Friday 12:00 in São Paulo
      answers: { [survey.ratingId]: 1, [survey.commentId]: 'The teacher never came' },
      org: { unitId: unit, path: `/${unit}/`, source: 'invite' },
    });
    await respond(t, survey, 5, '2026-03-06T15:01:00.000Z'); // a good rating opens nothing
    const [opened] = await casesOf(company.id);
    expect(await casesOf(company.id)).toHaveLength(1);
    const list = await events(company.id);
    expect(list).toEqual([
      {
        type: 'treatment.opened',
        data: {
          treatmentId: opened.id,
          number: 1,
          formId: survey.form.id,
          formName: 'Course survey',
          responseId,
          status: 'open',
          stepName: 'Call the respondent',
          stepIndex: 0,
          dueAt: '2026-03-11T02:59:59.999Z', // Monday, Tuesday: end of Tuesday in São Paulo
          orgUnitId: unit,
          orgPath: `/${unit}/`,
          at: '2026-03-06T15:00:00.000Z',
          outcome: null,
          reason: null,
        },
      },
    ]);
    expect(JSON.stringify(list)).not.toContain('teacher never came');
  });

  it('never opens a second case (nor spends a number) when the same response is processed again', async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    const responseId = await respond(t, survey, 2);
    const { rows } = await t.ctx.pool.query('SELECT * FROM responses WHERE id = $1', [responseId]);
    const row = { ...rows[0], companyId: rows[0].company_id, formId: rows[0].form_id, orgUnitId: null, orgPath: null };
    const again = await t.ctx.db.transaction((tx) => openCasesForResponse(tx, t.ctx, row));
    expect(again).toEqual([]);
    await respond(t, survey, 1);
    expect((await casesOf(company.id)).map((c) => c.number)).toEqual([1, 2]);
    expect((await events(company.id)).map((e) => e.type)).toEqual(['treatment.opened', 'treatment.opened']);
  });

  it('rolls the case and its number back with a response that fails', async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await expect(
      t.ctx.db.transaction(async (tx) => {
        const { recordResponse } = await import('../responses/record-response.js');
        await recordResponse(tx, t.ctx, { form: survey.form, answers: { [survey.ratingId]: 1 } });
        throw new Error('the caller fails after recording');
      }),
    ).rejects.toThrow('the caller fails');
    await respond(t, survey, 1);
    expect((await casesOf(company.id)).map((c) => c.number)).toEqual([1]);
  });

  it('numbers 50 concurrent openings 1..50 with no gap or duplicate', { timeout: 60_000 }, async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await Promise.all(Array.from({ length: 50 }, () => respond(t, survey, 1)));
    const numbers = (await casesOf(company.id)).map((c) => c.number);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const other = await t.tenant();
    await respond(t, await createFlowSurvey(t, other.company.id), 1);
    expect((await casesOf(other.company.id)).map((c) => c.number)).toEqual([1]);
  });
});

describe('advancing, closing and reopening', () => {
  it('fulfilling the last step closes with outcome resolved; each step starts its own working days', async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await respond(t, survey, 1, '2026-03-02T09:00:00.000Z'); // Monday
    const [c] = await casesOf(company.id);
    t.clock.set('2026-03-03T10:00:00.000Z');
    const advanced = await advanceCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id });
    expect(advanced).toMatchObject({ status: 'open', stepIndex: 1, stepDueAt: new Date('2026-03-06T23:59:59.999Z') });
    t.clock.set('2026-03-04T10:00:00.000Z');
    const closed = await advanceCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id });
    expect(closed).toMatchObject({ status: 'closed', outcome: 'resolved', reason: null, stepDueAt: null });
    const list = await events(company.id);
    expect(list.map((e) => e.type)).toEqual(['treatment.opened', 'treatment.closed']);
    expect(list[1].data).toEqual({
      treatmentId: c.id, number: 1, formId: survey.form.id, formName: 'Course survey', responseId: c.response_id, status: 'closed',
      stepName: 'Report back', stepIndex: 1, dueAt: null, orgUnitId: null, orgPath: null, at: '2026-03-04T10:00:00.000Z', outcome: 'resolved', reason: null,
    });
  });

  it('closing early needs an outcome other than resolved and always a reason; treatment.closed carries both', async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await respond(t, survey, 1);
    const [c] = await casesOf(company.id);
    const close = (outcome: string, reason?: string) => closeCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id, outcome, reason });
    const fields = async (outcome: string, reason?: string) => {
      const error = await close(outcome, reason).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR' });
      return (error as { details: { fields: { path: string; code: string }[] } }).details.fields;
    };
    expect(await fields('other')).toEqual([expect.objectContaining({ path: 'reason', code: 'required' })]);
    expect(await fields('other', '   ')).toEqual([expect.objectContaining({ path: 'reason', code: 'required' })]);
    expect(await fields('unfounded')).toEqual([expect.objectContaining({ path: 'reason', code: 'required' })]);
    expect(await fields('resolved', 'done')).toEqual([expect.objectContaining({ path: 'outcome', code: 'invalid_value' })]);
    expect(await fields('fixed', 'done')).toEqual([expect.objectContaining({ path: 'outcome', code: 'invalid_value' })]);
    expect(await fields('duplicate', 'x'.repeat(2001))).toEqual([expect.objectContaining({ path: 'reason', code: 'too_long' })]);
    await close('other', 'Handled by the ombudsman');
    const closed = (await events(company.id)).at(-1)!;
    expect(closed).toMatchObject({ type: 'treatment.closed', data: { status: 'closed', outcome: 'other', reason: 'Handled by the ombudsman', dueAt: null, stepIndex: 0, stepName: 'Call the respondent' } });
    // a closed case cannot be closed or advanced again
    expect(await fields('duplicate', 'again')).toEqual([expect.objectContaining({ path: 'status', code: 'invalid_value' })]);
    await expect(advanceCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('reopening records history, clears the outcome, counts the step anew and emits nothing', async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await respond(t, survey, 1);
    const [c] = await casesOf(company.id);
    await closeCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id, outcome: 'no-response', reason: 'Three calls, no answer' });
    t.clock.set('2026-03-13T12:00:00.000Z'); // Friday
    await expect(reopenCase(t.ctx.db, t.ctx, { companyId: company.id, id: 'not-a-uuid' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const reopened = await reopenCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id });
    expect(reopened).toMatchObject({ status: 'open', outcome: null, reason: null, closedAt: null, stepIndex: 0, stepDueAt: new Date('2026-03-17T23:59:59.999Z') });
    await expect(reopenCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await events(company.id)).map((e) => e.type)).toEqual(['treatment.opened', 'treatment.closed']);
    const { rows } = await t.ctx.pool.query('SELECT action, step_index, outcome, reason FROM treatment_history WHERE treatment_id = $1 ORDER BY id', [c.id]);
    expect(rows).toEqual([
      { action: 'opened', step_index: 0, outcome: null, reason: null },
      { action: 'closed', step_index: 0, outcome: 'no-response', reason: 'Three calls, no answer' },
      { action: 'reopened', step_index: 0, outcome: null, reason: null },
    ]);
  });

  it("keeps a null outcome null in treatment.closed (a case closed before outcomes existed), never resolved", async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await respond(t, survey, 1);
    const [c] = await casesOf(company.id);
    await closeCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id, outcome: 'duplicate', reason: 'Same as #1' });
    await t.ctx.pool.query('UPDATE treatments SET outcome = NULL, reason = NULL WHERE id = $1', [c.id]);
    const { caseEventData } = await import('./case-event.js');
    const { treatments } = await import('./table.js');
    const { eq } = await import('drizzle-orm');
    const [row] = await t.ctx.db.select().from(treatments).where(eq(treatments.id, c.id));
    expect(caseEventData('treatment.closed', row, 'Course survey', t.clock.now())).toMatchObject({ outcome: null, reason: null, status: 'closed' });
  });

  it("refuses another company's case as NOT_FOUND", async () => {
    const { company } = await t.tenant();
    const other = await t.tenant();
    await respond(t, await createFlowSurvey(t, company.id), 1);
    const [c] = await casesOf(company.id);
    await expect(advanceCase(t.ctx.db, t.ctx, { companyId: other.company.id, id: c.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(closeCase(t.ctx.db, t.ctx, { companyId: other.company.id, id: c.id, outcome: 'other', reason: 'r' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('overdue sweep', () => {
  it('emits treatment.overdue once per step, and again for a later step with its stepIndex', async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await respond(t, survey, 1, '2026-03-02T09:00:00.000Z'); // due end of Wednesday 4 March
    const [c] = await casesOf(company.id);
    t.clock.set('2026-03-04T23:59:59.999Z');
    expect(await sweepOverdue(t.ctx.db, t.ctx)).toBe(0);
    t.clock.set('2026-03-05T00:00:00.000Z');
    await sweepOverdue(t.ctx.db, t.ctx);
    t.clock.set('2026-03-06T00:00:00.000Z');
    await sweepOverdue(t.ctx.db, t.ctx);
    let list = (await events(company.id)).filter((e) => e.type === 'treatment.overdue');
    expect(list).toHaveLength(1);
    expect(list[0].data).toEqual({
      treatmentId: c.id, number: 1, formId: survey.form.id, formName: 'Course survey', responseId: c.response_id, status: 'open',
      stepName: 'Call the respondent', stepIndex: 0, dueAt: '2026-03-04T23:59:59.999Z', orgUnitId: null, orgPath: null,
      at: '2026-03-05T00:00:00.000Z', outcome: null, reason: null,
    });
    await advanceCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id }); // step 1: 3 working days from Friday 6 → Wed 11
    t.clock.set('2026-03-12T08:00:00.000Z');
    await sweepOverdue(t.ctx.db, t.ctx);
    await sweepOverdue(t.ctx.db, t.ctx);
    list = (await events(company.id)).filter((e) => e.type === 'treatment.overdue');
    expect(list.map((e) => [e.data.stepIndex, e.data.stepName, e.data.dueAt])).toEqual([
      [0, 'Call the respondent', '2026-03-04T23:59:59.999Z'],
      [1, 'Report back', '2026-03-11T23:59:59.999Z'],
    ]);
  });

  it('two concurrent sweepers emit one event per overdue step', { timeout: 60_000 }, async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await addResponses(t, survey, 30, { at: '2026-03-02T09:00:00.000Z', answers: { [survey.ratingId]: 1 } });
    const hook = await subscribe(t, company.id, 'http://127.0.0.1:9/hook', ['treatment.overdue']);
    t.clock.set('2026-03-20T00:00:00.000Z');
    // Batches of 2 so that both sweepers claim rows while the other holds some.
    const counts = await Promise.all([sweepOverdue(t.ctx.db, t.ctx, { batchSize: 2 }), sweepOverdue(t.ctx.db, t.ctx, { batchSize: 2 })]);
    const overdue = (await events(company.id)).filter((e) => e.type === 'treatment.overdue');
    expect(counts[0] + counts[1]).toBeGreaterThanOrEqual(30); // other tests' cases in this database are late too
    expect(counts.every((n) => n > 0)).toBe(true);
    const mine = overdue.map((e) => e.data.treatmentId as string);
    expect(mine).toHaveLength(30);
    expect(new Set(mine).size).toBe(30);
    // each event queued its delivery in the sweep's statement
    const { rows: overdueIds } = await t.ctx.pool.query(`SELECT id FROM events WHERE company_id = $1 AND type = 'treatment.overdue'`, [company.id]);
    const deliveries = await deliveryRows(t, company.id);
    expect(deliveries.map((d) => d.event_id).sort()).toEqual(overdueIds.map((e) => e.id).sort());
    expect(deliveries.every((d) => d.subscription_id === hook.subscription.id)).toBe(true);
  });

  it('is a task of the worker, woken by cron, and so is the effectiveness sweep', async () => {
    expect((await allTasks()).find((task) => task.name === 'treatments.overdue')).toMatchObject({ cron: '*/5 * * * *' });
    expect((await allTasks()).find((task) => task.name === 'treatments.effectiveness')).toMatchObject({ cron: '11 * * * *' });
  });

  it('a closed case is never overdue', async () => {
    const { company } = await t.tenant();
    await respond(t, await createFlowSurvey(t, company.id), 1, '2026-03-02T09:00:00.000Z');
    const [c] = await casesOf(company.id);
    await closeCase(t.ctx.db, t.ctx, { companyId: company.id, id: c.id, outcome: 'unfounded', reason: 'Not upheld' });
    t.clock.set('2026-04-01T00:00:00.000Z');
    await sweepOverdue(t.ctx.db, t.ctx);
    expect((await events(company.id)).map((e) => e.type)).toEqual(['treatment.opened', 'treatment.closed']);
  });
});

describe('company holidays', () => {
  it('adding or removing a holiday moves the deadlines of open steps, not of closed cases', async () => {
    const { company } = await t.tenant();
    const survey = await createFlowSurvey(t, company.id);
    await respond(t, survey, 1, '2026-03-02T09:00:00.000Z');
    await respond(t, survey, 1, '2026-03-02T09:00:00.000Z');
    const [open, closed] = await casesOf(company.id);
    await closeCase(t.ctx.db, t.ctx, { companyId: company.id, id: closed.id, outcome: 'duplicate', reason: 'Same as #1' });
    const dueOf = async (id: string) => (await t.ctx.pool.query('SELECT step_due_at FROM treatments WHERE id = $1', [id])).rows[0].step_due_at as Date | null;
    expect(await dueOf(open.id)).toEqual(new Date('2026-03-04T23:59:59.999Z'));
    expect(await addHoliday(t.ctx.db, t.ctx, { companyId: company.id, day: '2026-03-03', name: 'Founders day' })).toMatchObject({ movedDeadlines: 1 });
    expect(await dueOf(open.id)).toEqual(new Date('2026-03-05T23:59:59.999Z'));
    expect(await dueOf(closed.id)).toBeNull();
    await removeHoliday(t.ctx.db, t.ctx, { companyId: company.id, day: '2026-03-03' });
    expect(await dueOf(open.id)).toEqual(new Date('2026-03-04T23:59:59.999Z'));
    await expect(removeHoliday(t.ctx.db, t.ctx, { companyId: company.id, day: '2026-03-03' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(addHoliday(t.ctx.db, t.ctx, { companyId: company.id, day: '2026-02-30', name: 'x' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('moving the company to another time zone moves the deadlines of open steps (quorum company set --time-zone)', async () => {
    const { company } = await t.tenant();
    await respond(t, await createFlowSurvey(t, company.id), 1, '2026-03-02T09:00:00.000Z');
    const [c] = await casesOf(company.id);
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { timeZone: 'Pacific/Auckland' } });
    const { rows } = await t.ctx.pool.query('SELECT step_due_at FROM treatments WHERE id = $1', [c.id]);
    // Monday 22:00 in Auckland: Tuesday and Wednesday, ending 23:59:59.999 NZDT (UTC+13)
    expect(rows[0].step_due_at).toEqual(new Date('2026-03-04T10:59:59.999Z'));
  });
});

describe('public holidays (company setting holidayCountry)', () => {
  // Monday 20 April 2026, a step of 2 working days; Tuesday 21 April is Tiradentes, a public holiday in Brazil.
  const dueAtOf = async (token: string, id: string) => (await t.get(token, `/v1/treatments/${id}`)).json().data.dueAt as string;

  it('counts Monday to Friday by default, whatever the phone country, and skips a country only once it is set', async () => {
    const { company, token } = await t.tenant();
    expect((await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: {} })).settings.holidayCountry).toBeNull();
    await respond(t, await createFlowSurvey(t, company.id, { defaultCountry: 'BR' }), 1, '2026-04-20T12:00:00.000Z');
    const [c] = await casesOf(company.id);
    expect(await dueAtOf(token, c.id)).toBe('2026-04-22T23:59:59.999Z'); // Tuesday and Wednesday
    expect(await events(company.id)).toMatchObject([{ type: 'treatment.opened', data: { dueAt: '2026-04-22T23:59:59.999Z' } }]);

    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { holidayCountry: 'BR' } });
    expect(await dueAtOf(token, c.id)).toBe('2026-04-23T23:59:59.999Z'); // Tiradentes skipped
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { holidayCountry: null } });
    expect(await dueAtOf(token, c.id)).toBe('2026-04-22T23:59:59.999Z');
  });

  it('refuses a country code that is not one, or that has no public holiday calendar', async () => {
    const { company } = await t.tenant();
    for (const holidayCountry of ['XX', 'AQ', 'br']) {
      await expect(updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { holidayCountry } as never })).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { fields: [expect.objectContaining({ path: 'holidayCountry' })] },
      });
    }
  });
});
