import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { registerSchool, rosterPayload, studentId } from '../../../test/rosters.js';
import { createStatsSurvey, createUnits, loadSurvey, record, type Spec, type StatsSurvey } from '../../../test/statistics.js';
import { listEntities } from '../entities/list-entities.js';
import { importForm } from '../forms/import-form.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const at = (i: number) => `2026-03-01T${String(8 + i).padStart(2, '0')}:00:00.000Z`;
const specs = (count: number, spec: Omit<Spec, 'at'>): Spec[] => Array.from({ length: count }, (_, i) => ({ at: at(i), ...spec }));

async function call(token: string, s: StatsSurvey, route: string, query = '') {
  const res = await t.get(token, `/v1/forms/${s.form.id}/${route}?${query}`);
  return { status: res.statusCode, body: res.json() };
}

describe('possible authors of an invite form', () => {
  async function invite(token: string, s: StatsSurvey, i: number, course: string): Promise<string> {
    const res = await t.post(token, `/v1/forms/${s.form.id}/invites`, { email: `p${i}@example.test`, dims: { course } });
    expect(res.statusCode).toBe(201);
    return res.json().data.id;
  }
  const revoke = async (token: string, id: string) => expect((await t.post(token, `/v1/invites/${id}/revoke`)).statusCode).toBe(200);

  it('counts the non-revoked invites of the cut, so 3 responses of 12 invites pass a floor of 5', async () => {
    const tenant = await t.tenant();
    const survey = await createStatsSurvey(t, tenant.company.id, { anonymous: true });
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await invite(tenant.token, survey, i, i < 7 ? 'A' : 'B'));
    await record(t, survey, [...specs(2, { dims: { course: 'A' } }), ...specs(1, { dims: { course: 'B' } })]);

    expect((await call(tenant.token, survey, 'statistics')).body.data).toMatchObject({ responseCount: 3 });
    expect((await call(tenant.token, survey, 'statistics', 'dim.course=B')).body.data).toMatchObject({ responseCount: 1 });
    const report = (await call(tenant.token, survey, 'report', 'groupBy=dim.course')).body.data;
    expect(report.groups).toMatchObject([
      { key: 'A', name: null, suppressed: false, statistics: { responseCount: 2 } },
      { key: 'B', name: null, suppressed: false, statistics: { responseCount: 1 } },
    ]);

    // A revoked invite is no possible author: B drops to 4, and A with it (12 - 1 - 7 = 4 left to subtract).
    await revoke(tenant.token, ids[11]);
    const isolated = await call(tenant.token, survey, 'statistics', 'dim.course=B');
    expect(isolated.status).toBe(409);
    expect(isolated.body.error).toMatchObject({ code: 'ANONYMITY_SUPPRESSED', details: { floor: 5, authors: 4 } });
    expect((await call(tenant.token, survey, 'report', 'groupBy=dim.course')).body.data.groups).toEqual([
      { key: 'A', suppressed: true },
      { key: 'B', suppressed: true },
    ]);

    for (const id of ids.slice(4, 11)) await revoke(tenant.token, id);
    const whole = await call(tenant.token, survey, 'statistics');
    expect(whole.status).toBe(409);
    expect(whole.body.error.details).toEqual({ floor: 5, authors: 4 });
  });

  it("counts an org unit's invites in its subtree", async () => {
    const tenant = await t.tenant();
    const units = await createUnits(t, tenant.company.id);
    const survey = await createStatsSurvey(t, tenant.company.id, { anonymous: true });
    const invites = [...Array(6).fill('U1a'), ...Array(5).fill('U2')];
    for (const [i, unit] of invites.entries()) {
      const res = await t.post(tenant.token, `/v1/forms/${survey.form.id}/invites`, { email: `u${i}@example.test`, dims: { campus: unit } });
      expect(res.statusCode).toBe(201);
    }
    const from = (code: string) => ({ org: { unitId: units[code].id, path: units[code].path, source: 'invite' as const } });
    await record(t, survey, [...specs(2, from('U1a')), ...specs(1, from('U2'))]);
    const groups = (await call(tenant.token, survey, 'report', 'groupBy=orgUnit')).body.data.groups;
    const byId = Object.fromEntries(Object.entries(units).map(([code, unit]) => [unit.id, code]));
    // ROOT 11, U1 6, U1a 6, U2 5: all at the floor or above, and ROOT minus U1 and U2 leaves nothing.
    expect(Object.fromEntries(groups.map((g: { key: string; suppressed: boolean }) => [byId[g.key], g.suppressed]))).toEqual({
      ROOT: false,
      U1: false,
      U1a: false,
      U2: false,
    });
  });

  it('never counts fewer authors than responses, nor another company\'s invites', async () => {
    const other = await t.tenant();
    const theirs = await createStatsSurvey(t, other.company.id, { slug: 'theirs', anonymous: true });
    for (let i = 0; i < 6; i++) await invite(other.token, theirs, i, 'A');
    const tenant = await t.tenant();
    const survey = await createStatsSurvey(t, tenant.company.id, { slug: 'theirs', anonymous: true });
    await invite(tenant.token, survey, 0, 'A');
    await record(t, survey, specs(4, { dims: { course: 'A' } }));
    expect((await call(tenant.token, survey, 'statistics')).body.error.details).toEqual({ floor: 5, authors: 4 });
    await record(t, survey, specs(1, {}));
    expect((await call(tenant.token, survey, 'statistics')).body.data.responseCount).toBe(5);
  });
});

describe('possible authors of a class-linked form', () => {
  const CLASS_FORM = {
    slug: 'class-survey',
    name: 'Class survey',
    settings: { anonymous: true },
    dims: [
      { key: 'course', kind: 'course', source: 'class' },
      { key: 'campus', kind: 'unit', source: 'class' },
    ],
    sections: [{ key: 'main', name: 'Main', questions: [{ key: 'stars', name: 'Stars', type: 'STAR' }] }],
  };

  it('are the persons enrolled in the classes of the cut, not the dropped ones', async () => {
    const { company, token } = await t.tenant();
    await registerSchool(t, company.id);
    // C0: MATH at north-1, C1: HIST at south; six students each.
    expect((await t.post(token, '/v1/enrollments/import', rosterPayload(2, 6))).statusCode).toBe(200);
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: CLASS_FORM });
    const survey = await loadSurvey(t, company.id, id);
    const code = async (kind: 'course' | 'unit') => Object.fromEntries((await listEntities(t.ctx.db, t.ctx, { companyId: company.id, kind })).map((e) => [e.code, e]));
    const [courses, units] = [await code('course'), await code('unit')];
    const from = (course: string, unit: string) => ({
      dims: { course: courses[course].id, campus: units[unit].id },
      org: { unitId: units[unit].id, path: units[unit].orgPath!, source: 'class' as const },
    });
    await record(t, survey, [...specs(2, from('MATH', 'north-1')), ...specs(1, from('HIST', 'south'))]);

    expect((await call(token, survey, 'statistics')).body.data.responseCount).toBe(3);
    expect((await call(token, survey, 'statistics', `dim.course=${courses.HIST.id}`)).body.data.responseCount).toBe(1);
    const byUnit = (await call(token, survey, 'report', 'groupBy=orgUnit')).body.data.groups;
    expect(Object.fromEntries(byUnit.map((g: { key: string; suppressed: boolean }) => [g.key, g.suppressed]))).toEqual({
      [units.north.id]: false,
      [units['north-1'].id]: false,
      [units.south.id]: false,
    });

    // Two HIST students drop out: four possible authors are left in that class.
    const drop = (i: number) => ({ externalId: studentId(i), classCode: 'C1', status: 'dropped' });
    expect((await t.post(token, '/v1/enrollments/import', { mode: 'upsert', enrollments: [drop(6), drop(7)] })).statusCode).toBe(200);
    const isolated = await call(token, survey, 'statistics', `dim.course=${courses.HIST.id}`);
    expect(isolated.status).toBe(409);
    expect(isolated.body.error.details).toEqual({ floor: 5, authors: 4 });
    const report = (await call(token, survey, 'report', 'groupBy=dim.course')).body.data.groups;
    expect(report.find((g: { key: string }) => g.key === courses.HIST.id)).toEqual({ key: courses.HIST.id, suppressed: true });
  });
});
