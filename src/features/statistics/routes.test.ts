import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createStatsSurvey, loadSurvey, record, statisticsForm, type StatsSurvey } from '../../../test/statistics.js';
import { importForm } from '../forms/import-form.js';
import { deleteResponse } from './delete-response.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const statsUrl = (s: StatsSurvey, query = '') => `/v1/forms/${s.form.id}/statistics${query ? `?${query}` : ''}`;
const reportUrl = (s: StatsSurvey, query: string) => `/v1/forms/${s.form.id}/report?${query}`;

async function getData(token: string, url: string) {
  const res = await t.get(token, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const question = (data: any, key: string) => data.questions.find((q: any) => q.key === key);

/** Four responses over three days; R3 unfinished, R4 answers only `pick`. */
async function seedFour() {
  const tenant = await t.tenant();
  const s = await createStatsSurvey(t, tenant.company.id);
  const { q, o } = s;
  const ids = await record(t, s, [
    {
      at: '2026-03-01T10:00:00.000Z',
      dims: { course: 'math', year: '2025' },
      answers: {
        [q.pick.id]: o.pick.A, [q.many.id]: [o.many.X, o.many.Y], [q.agree.id]: true, [q.amount.id]: 10, [q.stars.id]: 5,
        [q.nps.id]: 10, [q.range.id]: 4, [q.grid.id]: { [o.grid.r1]: o.grid.c1, [o.grid.r2]: o.grid.c2 },
        [q.rank.id]: [o.rank.p, o.rank.q, o.rank.r], [q.note.id]: 'hi', [q.when.id]: '2026-01-01',
      },
    },
    {
      at: '2026-03-01T12:00:00.000Z',
      dims: { course: 'math', year: '2026' },
      answers: {
        [q.pick.id]: o.pick.A, [q.many.id]: [o.many.X], [q.agree.id]: false, [q.amount.id]: 20, [q.stars.id]: 3,
        [q.nps.id]: 7, [q.range.id]: 6, [q.grid.id]: { [o.grid.r1]: o.grid.c1 }, [q.rank.id]: [o.rank.q, o.rank.p, o.rank.r],
      },
    },
    {
      at: '2026-03-02T09:00:00.000Z',
      dims: { course: 'hist', year: '2026' },
      completedAt: null,
      answers: {
        [q.pick.id]: o.pick.B, [q.many.id]: [], [q.amount.id]: -5, [q.stars.id]: 4, [q.nps.id]: 3, [q.range.id]: 10,
        [q.rank.id]: [o.rank.r, o.rank.q, o.rank.p],
      },
    },
    { at: '2026-03-03T09:00:00.000Z', dims: { course: 'hist' }, answers: { [q.pick.id]: o.pick.C } },
  ]);
  return { ...tenant, s, ids };
}

describe('GET /v1/forms/{id}/statistics', () => {
  it('gives every figure of every question type from the rollups', async () => {
    const { token, s } = await seedFour();
    const data = await getData(token, statsUrl(s));
    expect(data).toMatchObject({
      responseCount: 4, completedCount: 3, firstAt: '2026-03-01T10:00:00.000Z', lastAt: '2026-03-03T09:00:00.000Z',
      truncated: false, scanned: 4, from: null, to: null,
    });
    expect(question(data, 'pick')).toMatchObject({ answered: 4, options: [{ key: 'A', count: 2, share: 0.5 }, { key: 'B', count: 1, share: 0.25 }, { key: 'C', count: 1 }] });
    expect(question(data, 'many')).toMatchObject({ answered: 2, options: [{ key: 'X', count: 2, share: 1 }, { key: 'Y', count: 1, share: 0.5 }] });
    expect(question(data, 'agree')).toMatchObject({ answered: 2, options: [{ id: 'true', count: 1 }, { id: 'false', count: 1 }] });
    const amount = question(data, 'amount');
    expect(amount).toMatchObject({ count: 3, min: -5, max: 20 });
    expect(amount.mean).toBeCloseTo(25 / 3, 10);
    expect(Math.abs(amount.median - 10)).toBeLessThanOrEqual(0.1);
    expect(question(data, 'stars')).toMatchObject({
      count: 3, mean: 4, median: 4, min: 3, max: 5,
      histogram: [{ from: 3, to: 3, count: 1 }, { from: 4, to: 4, count: 1 }, { from: 5, to: 5, count: 1 }],
    });
    expect(question(data, 'nps')).toMatchObject({ count: 3, median: 7, nps: { promoters: 1, passives: 1, detractors: 1, score: 0 } });
    expect(question(data, 'range')).toMatchObject({ count: 3, median: 6, min: 4, max: 10 });
    expect(question(data, 'grid')).toMatchObject({
      answered: 2,
      rows: [{ key: 'r1', columns: [{ key: 'c1', count: 2 }, { key: 'c2', count: 0 }] }, { key: 'r2', columns: [{ key: 'c1', count: 0 }, { key: 'c2', count: 1 }] }],
    });
    const rank = question(data, 'rank');
    expect(rank.answered).toBe(3);
    expect(rank.options.map((option: any) => option.meanRank)).toEqual([2, 5 / 3, 7 / 3]);
    expect(question(data, 'note')).toEqual({ id: s.q.note.id, key: 'note', name: 'Note', type: 'TEXT', answered: 1 });
    expect(question(data, 'when').answered).toBe(1);
  });

  it('bins whole-number answers on their grid: whole-number bounds and median, with the report alike', async () => {
    const { token, company } = await t.tenant();
    const definition = statisticsForm('whole-numbers');
    definition.sections[0].questions.push({ key: 'missed', name: 'Missed', type: 'NUMBER', min: 0, max: 200, step: 1 });
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: definition });
    const s = await loadSurvey(t, company.id, id);
    // 101 and 102 share a sketch bucket; 0 to 50 each have their own.
    const values = [0, 1, 1, 2, 50, 101, 102];
    await record(t, s, values.map((value, i) => ({ at: `2026-03-0${1 + (i % 2)}T10:00:00.000Z`, dims: { course: i < 3 ? 'math' : 'hist' }, answers: { [s.q.missed.id]: value } })));
    const missed = question(await getData(token, statsUrl(s)), 'missed');
    expect(missed).toMatchObject({ count: 7, min: 0, max: 102, median: 2 });
    expect(missed.histogram).toEqual([
      { from: 0, to: 0, count: 1 }, { from: 1, to: 1, count: 2 }, { from: 2, to: 2, count: 1 }, { from: 50, to: 50, count: 1 }, { from: 101, to: 102, count: 2 },
    ]);
    const report = await getData(token, reportUrl(s, 'groupBy=dim.course'));
    const math = question(report.groups.find((g: any) => g.key === 'math').statistics, 'missed');
    expect(math).toMatchObject({ median: 1, histogram: [{ from: 0, to: 0, count: 1 }, { from: 1, to: 1, count: 2 }] });
    const hist = question(report.groups.find((g: any) => g.key === 'hist').statistics, 'missed');
    // The middle answers are 50 and 101; the 101..102 bin reads as 102, the grid value nearest its sketch estimate.
    expect(hist.median).toBe(76);
    expect(hist.histogram.every((bin: any) => Number.isInteger(bin.from) && Number.isInteger(bin.to))).toBe(true);
  });

  it('keeps the sketch buckets when an answer is off the grid (recorded before the step was set)', async () => {
    const { token, company } = await t.tenant();
    const s = await createStatsSurvey(t, company.id, { slug: 'grid-later' });
    await record(t, s, [1, 2.5, 3].map((value) => ({ at: '2026-03-01T10:00:00.000Z', answers: { [s.q.amount.id]: value } })));
    const definition = statisticsForm('grid-later');
    definition.sections[0].questions = definition.sections[0].questions.map((q) => (q.key === 'amount' ? ({ ...q, min: 0, step: 1 } as typeof q) : q));
    await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: definition });
    const amount = question(await getData(token, statsUrl(s)), 'amount');
    expect(amount.histogram).toHaveLength(3);
    expect(amount.histogram[1].from).toBeLessThan(2.5);
    expect(amount.histogram[1].to).toBeGreaterThanOrEqual(2.5);
    expect(Number.isInteger(amount.histogram[1].from)).toBe(false);
    expect(Math.abs(amount.median - 2.5)).toBeLessThanOrEqual(2.5 * 0.01);
  });

  it('filters by period and by one dim from the rollups, and by two dims with a scan', async () => {
    const { token, s } = await seedFour();
    expect((await getData(token, statsUrl(s, 'from=2026-03-02'))).responseCount).toBe(2);
    expect(await getData(token, statsUrl(s, 'to=2026-03-01'))).toMatchObject({ responseCount: 2, to: '2026-03-01', truncated: false });
    const math = await getData(token, statsUrl(s, 'dim.course=math'));
    expect(math).toMatchObject({ responseCount: 2, scanned: 2 });
    expect(question(math, 'amount')).toMatchObject({ min: 10, max: 20, mean: 15 });
    const both = await getData(token, statsUrl(s, 'dim.course=hist&dim.year=2026'));
    expect(both).toMatchObject({ responseCount: 1, scanned: 1, truncated: false, completedCount: 0 });
    expect(question(both, 'amount')).toMatchObject({ count: 1, min: -5, max: -5 });
    expect((await getData(token, statsUrl(s, 'dim.course=none'))).responseCount).toBe(0);
  });

  it('reverses a deleted response, min and max included', async () => {
    const { token, s, ids, company } = await seedFour();
    await t.ctx.db.transaction((tx) => deleteResponse(tx, t.ctx, { companyId: company.id, responseId: ids[1] }));
    const data = await getData(token, statsUrl(s));
    expect(data.responseCount).toBe(3);
    expect(question(data, 'amount')).toMatchObject({ count: 2, min: -5, max: 10, mean: 2.5 });
    expect(question(data, 'pick').options[0]).toMatchObject({ key: 'A', count: 1 });
    expect((await getData(token, statsUrl(s, 'dim.year=2026'))).responseCount).toBe(1);
    const other = await t.tenant();
    await expect(t.ctx.db.transaction((tx) => deleteResponse(tx, t.ctx, { companyId: other.company.id, responseId: ids[0] }))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('follows form edits: a removed question disappears, an added one starts at zero', async () => {
    const { token, s, company } = await seedFour();
    const edited = statisticsForm();
    edited.sections[0].questions = [...edited.sections[0].questions.filter((q) => q.key !== 'pick'), { key: 'extra', name: 'Extra', type: 'NUMBER' }];
    await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: edited });
    const data = await getData(token, statsUrl(s));
    expect(question(data, 'pick')).toBeUndefined();
    expect(question(data, 'extra')).toMatchObject({ count: 0, mean: null, median: null, histogram: [] });
    expect(question(data, 'stars').count).toBe(3);
    const after = await loadSurvey(t, company.id, s.form.id);
    await record(t, after, [{ at: '2026-03-04T09:00:00.000Z', answers: { [after.q.extra.id]: 7 } }]);
    expect(question(await getData(token, statsUrl(s)), 'extra')).toMatchObject({ count: 1, min: 7, max: 7 });
  });

  it('refuses bad input with 400 and an unknown form with 404', async () => {
    const { token, s } = await seedFour();
    for (const query of ['from=2026-03-05&to=2026-03-01', 'from=yesterday', 'color=red', `dim.course=${'x'.repeat(201)}`]) {
      const res = await t.get(token, statsUrl(s, query));
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await t.get(token, '/v1/forms/not-a-uuid/statistics')).statusCode).toBe(404);
    expect((await t.get(token, reportUrl(s, 'groupBy=color'))).statusCode).toBe(400);
    expect((await t.get(token, `/v1/forms/${s.form.id}/report`)).statusCode).toBe(400);
  });
});

describe('GET /v1/forms/{id}/report', () => {
  it('splits the cut by a dim, in key order, leaving out responses without a value', async () => {
    const { token, s } = await seedFour();
    const report = await getData(token, reportUrl(s, 'groupBy=dim.year'));
    expect(report).toMatchObject({ groupBy: 'dim.year', truncated: false, scanned: 4 });
    expect(report.groups.map((g: any) => [g.key, g.suppressed, g.statistics.responseCount])).toEqual([['2025', false, 1], ['2026', false, 2]]);
    const courses = await getData(token, reportUrl(s, 'groupBy=dim.course&from=2026-03-01&to=2026-03-02'));
    expect(courses.groups.map((g: any) => [g.key, g.statistics.responseCount])).toEqual([['hist', 1], ['math', 2]]);
    const scanned = await getData(token, reportUrl(s, 'groupBy=dim.year&dim.course=math'));
    expect(scanned.groups.map((g: any) => [g.key, question(g.statistics, 'amount').mean])).toEqual([['2025', 10], ['2026', 20]]);
    const same = await getData(token, reportUrl(s, 'groupBy=dim.course&dim.course=hist'));
    expect(same.groups.map((g: any) => g.key)).toEqual(['hist']);
  });
});

describe('scan ceiling', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startTestApp({ config: { statisticsScanCeiling: 2 } });
  });
  afterAll(async () => small?.close());

  it('marks cuts the rollups cannot answer truncated past the ceiling, covering the newest responses', async () => {
    const tenant = await small.tenant();
    const s = await createStatsSurvey(small, tenant.company.id);
    await record(small, s, [1, 2, 3].map((n) => ({ at: `2026-03-0${n}T09:00:00.000Z`, dims: { course: 'c', year: '1' }, answers: { [s.q.stars.id]: n } })));
    const res = await small.get(tenant.token, statsUrl(s, 'dim.course=c&dim.year=1'));
    expect(res.json().data).toMatchObject({ truncated: true, scanned: 2, responseCount: 2, firstAt: '2026-03-02T09:00:00.000Z' });
    expect(question(res.json().data, 'stars')).toMatchObject({ min: 2, max: 3 });
    const whole = await small.get(tenant.token, statsUrl(s, 'dim.course=c'));
    expect(whole.json().data).toMatchObject({ truncated: false, scanned: 3, responseCount: 3 });
  });
});
