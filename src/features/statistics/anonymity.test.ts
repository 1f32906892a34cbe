import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createStatsSurvey, createUnits, record, type Spec, type StatsSurvey } from '../../../test/statistics.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const FLOOR = 5;

async function anonymousSurvey(floor?: number) {
  const tenant = await t.tenant();
  if (floor !== undefined) await t.ctx.pool.query(`UPDATE companies SET settings = jsonb_build_object('anonymityFloor', $2::int) WHERE id = $1`, [tenant.company.id, floor]);
  return { ...tenant, s: await createStatsSurvey(t, tenant.company.id, { anonymous: true }) };
}

const times = (count: number, spec: Omit<Spec, 'at'>, day = '2026-03-01'): Spec[] =>
  Array.from({ length: count }, (_, i) => ({ at: `${day}T${String(8 + (i % 12)).padStart(2, '0')}:00:00.000Z`, ...spec }));

async function call(token: string, s: StatsSurvey, route: string, query: string) {
  const res = await t.get(token, `/v1/forms/${s.form.id}/${route}?${query}`);
  return { status: res.statusCode, body: res.json() };
}

/** Every visible difference a reader can form from a grouped answer: the whole (or a group) minus its nearest visible subgroups. */
function expectNoSmallResidual(whole: number, groups: any[], parentOf: (key: string) => string | null) {
  const visible = groups.filter((g) => !g.suppressed);
  const nearestVisibleAncestor = (key: string): string | null => {
    let parent = parentOf(key);
    while (parent !== null && !visible.some((g) => g.key === parent)) parent = parentOf(parent);
    return parent;
  };
  for (const top of [null, ...visible.map((g) => g.key)]) {
    const own = top === null ? whole : visible.find((g) => g.key === top).statistics.responseCount;
    const covered = visible.filter((g) => g.key !== top && nearestVisibleAncestor(g.key) === top).reduce((sum, g) => sum + g.statistics.responseCount, 0);
    const residual = own - covered;
    expect(residual === 0 || residual >= FLOOR, `residual ${residual} under ${top ?? 'the whole cut'}`).toBe(true);
  }
}

describe('anonymity floor', () => {
  it('answers 409 ANONYMITY_SUPPRESSED with floor and authors under the floor, and follows the company floor', async () => {
    const { token, s, company } = await anonymousSurvey();
    await record(t, s, times(3, { answers: { [s.q.stars.id]: 4 } }));
    const res = await call(token, s, 'statistics', '');
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'ANONYMITY_SUPPRESSED', details: { floor: 5, authors: 3 } });
    expect((await call(token, s, 'report', 'groupBy=dim.course')).status).toBe(409);
    await t.ctx.pool.query(`UPDATE companies SET settings = '{"anonymityFloor": 3}' WHERE id = $1`, [company.id]);
    expect((await call(token, s, 'statistics', '')).body.data.responseCount).toBe(3);
  });

  it('does not apply to forms that are not anonymous', async () => {
    const tenant = await t.tenant();
    const s = await createStatsSurvey(t, tenant.company.id);
    await record(t, s, [...times(2, { dims: { course: 'C' } }), ...times(1, {})]);
    const report = await call(tenant.token, s, 'report', 'groupBy=dim.course');
    expect(report.body.data.groups).toMatchObject([{ key: 'C', suppressed: false, statistics: { responseCount: 2 } }]);
  });

  it('attack: the whole cut minus the visible groups does not give back a suppressed group', async () => {
    const { token, s } = await anonymousSurvey();
    await record(t, s, [
      ...times(10, { dims: { course: 'A' } }),
      ...times(7, { dims: { course: 'B' } }),
      ...times(2, { dims: { course: 'C' }, answers: { [s.q.stars.id]: 1 } }),
      ...times(2, {}),
    ]);
    const whole = (await call(token, s, 'statistics', '')).body.data.responseCount;
    const { groups } = (await call(token, s, 'report', 'groupBy=dim.course')).body.data;
    expect(groups).toEqual([
      expect.objectContaining({ key: 'A', suppressed: false }),
      { key: 'B', suppressed: true },
      { key: 'C', suppressed: true },
    ]);
    expectNoSmallResidual(whole, groups, () => null);
  });

  it('attack: a dim filter that isolates one group, or its complement, is refused', async () => {
    const { token, s } = await anonymousSurvey();
    await record(t, s, [...times(10, { dims: { course: 'A', year: '1' } }), ...times(7, { dims: { course: 'B' } }), ...times(2, { dims: { course: 'C' } })]);
    const isolated = await call(token, s, 'statistics', 'dim.course=C');
    expect(isolated.status).toBe(409);
    expect(isolated.body.error.details).toEqual({ floor: 5, authors: 2 });
    expect((await call(token, s, 'statistics', 'dim.course=B')).status).toBe(409);
    expect((await call(token, s, 'report', 'groupBy=dim.course&dim.course=C')).status).toBe(409);
    expect((await call(token, s, 'statistics', 'dim.course=A')).body.data.responseCount).toBe(10);
    // Cross-cuts the floor cannot protect are refused outright.
    for (const query of ['dim.course=A&dim.year=1', 'dim.course=A&from=2026-03-01', 'groupBy=dim.year&dim.course=A', 'groupBy=dim.course&to=2026-03-01', 'dim.campus=x']) {
      const route = query.startsWith('groupBy') ? 'report' : 'statistics';
      const res = await call(token, s, route, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('attack: two overlapping date ranges never differ by fewer authors than the floor', async () => {
    const { token, s } = await anonymousSurvey();
    const perDay = [3, 1, 4, 1, 5, 2];
    const days = perDay.map((_, i) => `2026-03-0${i + 1}`);
    await record(t, s, perDay.flatMap((count, i) => times(count, { answers: { [s.q.stars.id]: 1 + (i % 5) } }, days[i])));
    const ends = [undefined, ...days];
    const results: { from?: string; to?: string; count: number }[] = [];
    for (const from of ends) {
      for (const to of ends) {
        if (from && to && from > to) continue;
        const query = [from && `from=${from}`, to && `to=${to}`].filter(Boolean).join('&');
        const res = await call(token, s, 'statistics', query);
        if (res.status === 409) continue;
        expect(res.status, query).toBe(200);
        results.push({ from, to, count: res.body.data.responseCount });
      }
    }
    const within = (inner: (typeof results)[0], outer: (typeof results)[0]) =>
      (!outer.from || (inner.from !== undefined && inner.from >= outer.from)) && (!outer.to || (inner.to !== undefined && inner.to <= outer.to));
    for (const inner of results) {
      for (const outer of results) {
        if (!within(inner, outer)) continue;
        const difference = outer.count - inner.count;
        expect(difference === 0 || difference >= FLOOR, `${JSON.stringify(outer)} - ${JSON.stringify(inner)}`).toBe(true);
      }
    }
    // The period is widened to whole blocks and said so.
    // Blocks: 1-3 March (8 responses), 4-6 March (1 + 5 + a short last day of 2).
    expect((await call(token, s, 'statistics', 'to=2026-03-02')).body.data).toMatchObject({ from: null, to: '2026-03-03', responseCount: 8 });
    expect((await call(token, s, 'statistics', 'from=2026-03-05')).body.data).toMatchObject({ from: '2026-03-04', to: null, responseCount: 8 });
  });

  it('attack: a unit minus its visible subunits does not give back a suppressed subunit', async () => {
    const { token, s, company } = await anonymousSurvey();
    const units = await createUnits(t, company.id);
    const at = (code: string) => ({ org: { unitId: units[code].id, path: units[code].path, source: 'invite' as const } });
    await record(t, s, [...times(2, at('U1a')), ...times(5, at('U1b')), ...times(6, at('U2'))]);
    const whole = (await call(token, s, 'statistics', '')).body.data.responseCount;
    const { groups } = (await call(token, s, 'report', 'groupBy=orgUnit')).body.data;
    const byId = Object.fromEntries(Object.entries(units).map(([code, unit]) => [unit.id, code]));
    expect(Object.fromEntries(groups.map((g: any) => [byId[g.key], g.suppressed]))).toEqual({ ROOT: false, U1: false, U1a: true, U1b: true, U2: false });
    const parentCode: Record<string, string | null> = { ROOT: null, U1: 'ROOT', U2: 'ROOT', U1a: 'U1', U1b: 'U1' };
    expectNoSmallResidual(whole, groups, (key) => {
      const parent = parentCode[byId[key]];
      return parent ? units[parent].id : null;
    });
    // One response outside every unit: the whole cut minus ROOT would be that one.
    await record(t, s, times(1, {}));
    const after = (await call(token, s, 'report', 'groupBy=orgUnit')).body.data.groups;
    expect(after.find((g: any) => g.key === units.ROOT.id).suppressed).toBe(true);
    expectNoSmallResidual(whole + 1, after, (key) => {
      const parent = parentCode[byId[key]];
      return parent ? units[parent].id : null;
    });
  });
});
