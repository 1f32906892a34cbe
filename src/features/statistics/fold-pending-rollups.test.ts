import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createStatsSurvey, createUnits, record, type Spec, type StatsSurvey } from '../../../test/statistics.js';
import { allTasks } from '../../platform/jobs/tasks.js';
import { recordResponse } from '../responses/record-response.js';
import { deleteResponse } from './delete-response.js';
import { foldPendingRollups } from './fold-pending-rollups.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const count = async (query: string, params: unknown[]) => Number((await t.ctx.pool.query(query, params)).rows[0].n);
const pending = (formId: string) => count('SELECT count(*) AS n FROM statistics_rollup_pending WHERE form_id = $1', [formId]);

async function getData(token: string, url: string) {
  const res = await t.get(token, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every read the rollups answer: whole form, period across a month end, one dim, one unit, a grouping, filtered response totals. */
async function readAll(token: string, s: StatsSurvey) {
  const base = `/v1/forms/${s.form.id}`;
  const reads = [
    `${base}/statistics`,
    `${base}/statistics?from=2026-01-31&to=2026-02-01`,
    `${base}/statistics?from=2026-02-01&to=2026-02-28`,
    `${base}/statistics?dim.course=math`,
    `${base}/report?groupBy=dim.year`,
    `${base}/report?groupBy=orgUnit`,
    `${base}/responses?limit=1&dim.course=math&from=2026-02-01`,
  ];
  const bodies = [];
  for (const url of reads) {
    const body = await getData(token, url);
    bodies.push(url.includes('/responses') ? body.meta.total : body.data);
  }
  return bodies;
}

describe('the fold sweep (pending rollup rows into day and month rows)', () => {
  it('is a cron sweep of the worker', async () => {
    expect((await allTasks()).find((task) => task.name === 'statistics.fold-rollups')).toMatchObject({ cron: '* * * * *' });
  });

  it('moves every pending response into its day and month rows, and readers count each once before and after', async () => {
    const { company, token } = await t.tenant();
    const s = await createStatsSurvey(t, company.id);
    const units = await createUnits(t, company.id);
    const { q, o } = s;
    const org = { unitId: units.U1a.id, path: units.U1a.path, source: 'invite' as const };
    const specs: Spec[] = [
      { at: '2026-01-31T23:59:59.000Z', dims: { course: 'math', year: '2025' }, org, answers: { [q.pick.id]: o.pick.A, [q.amount.id]: 10, [q.nps.id]: 9 } },
      { at: '2026-02-01T00:00:00.000Z', dims: { course: 'math', year: '2026' }, answers: { [q.pick.id]: o.pick.B, [q.amount.id]: -2.5, [q.rank.id]: [o.rank.q, o.rank.p, o.rank.r] } },
      { at: '2026-02-01T08:00:00.000Z', dims: { course: 'hist' }, org, completedAt: null, answers: { [q.many.id]: [o.many.X, o.many.Y], [q.amount.id]: 1e6 } },
      { at: '2026-02-20T08:00:00.000Z', dims: { course: 'math', year: '2025' }, answers: { [q.grid.id]: { [o.grid.r1]: o.grid.c2 }, [q.stars.id]: 2 } },
    ];
    await record(t, s, specs);
    expect(await pending(s.form.id)).toBe(4);
    const before = await readAll(token, s);
    expect(before[0].responseCount).toBe(4);
    expect(before.at(-1)).toBe(2);

    expect(await foldPendingRollups(t.ctx.db, t.ctx)).toBeGreaterThanOrEqual(4);
    expect(await pending(s.form.id)).toBe(0);
    expect(await readAll(token, s)).toEqual(before);
    // Day and month rows of the whole form hold the folded responses: January 1, February 3.
    const months = await t.ctx.pool.query(
      `SELECT day::text, responses FROM statistics_rollups WHERE form_id = $1 AND cut_key = '' AND span = 'month' ORDER BY day`,
      [s.form.id],
    );
    expect(months.rows).toEqual([{ day: '2026-01-01', responses: 1 }, { day: '2026-02-01', responses: 3 }]);
    expect(await foldPendingRollups(t.ctx.db, t.ctx)).toBe(0);

    // A response on a folded day merges into the existing rows at the next fold (batches of 1 here).
    await record(t, s, [{ ...specs[1], at: '2026-02-01T09:00:00.000Z' }, { ...specs[0], at: '2026-01-31T10:00:00.000Z' }]);
    const added = await readAll(token, s);
    expect(added[0].responseCount).toBe(6);
    expect(await foldPendingRollups(t.ctx.db, t.ctx, { batchSize: 1 })).toBe(2);
    expect(await readAll(token, s)).toEqual(added);
  });

  it('leaves figures exact with submissions, deletions and two sweepers running at once', async () => {
    const { company, token } = await t.tenant();
    const s = await createStatsSurvey(t, company.id);
    const { q, o } = s;
    t.clock.set('2026-04-30T12:00:00.000Z');
    const submit = (i: number) =>
      t.ctx.db.transaction(async (tx) => (await recordResponse(tx, t.ctx, { form: s.form, dims: { course: i % 2 ? 'math' : 'hist' }, answers: { [q.pick.id]: o.pick.A, [q.amount.id]: i } })).id);
    const first = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(i)));
    const sweeps = () => Promise.all([foldPendingRollups(t.ctx.db, t.ctx, { batchSize: 3 }), foldPendingRollups(t.ctx.db, t.ctx, { batchSize: 2 })]);
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => submit(10 + i)),
      ...first.slice(0, 4).map((id) => t.ctx.db.transaction((tx) => deleteResponse(tx, t.ctx, { companyId: company.id, responseId: id }))),
      sweeps(),
      sweeps(),
    ]);
    const expectExact = async () => {
      const whole = (await getData(token, `/v1/forms/${s.form.id}/statistics`)).data;
      const kept = await t.ctx.pool.query<{ amount: number }>(`SELECT (answers ->> $2)::float8 AS amount FROM responses WHERE form_id = $1`, [s.form.id, q.amount.id]);
      const amounts = kept.rows.map((row) => row.amount);
      expect(whole.responseCount).toBe(26);
      const amount = whole.questions.find((question: any) => question.key === 'amount');
      expect([amount.count, amount.min, amount.max, amount.mean]).toEqual([26, Math.min(...amounts), Math.max(...amounts), amounts.reduce((a, b) => a + b, 0) / 26]);
      const report = (await getData(token, `/v1/forms/${s.form.id}/report?groupBy=dim.course`)).data;
      expect(report.groups.map((group: any) => group.statistics.responseCount).reduce((a: number, b: number) => a + b, 0)).toBe(26);
    };
    await expectExact();
    await sweeps();
    expect(await pending(s.form.id)).toBe(0);
    await expectExact();
  });
});
