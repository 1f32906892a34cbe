import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { PanelClient, panelSession } from '../../../test/panel.js';
import { createStatsSurvey, record, type Spec } from '../../../test/statistics.js';

let t: TestApp;
let panel: PanelClient;
beforeAll(async () => {
  t = await startTestApp();
  panel = new PanelClient(t);
});
afterAll(async () => t?.close());

const times = (count: number, spec: Omit<Spec, 'at'>, day = '2026-03-01'): Spec[] =>
  Array.from({ length: count }, (_, i) => ({ at: `${day}T${String(8 + (i % 12)).padStart(2, '0')}:00:00.000Z`, ...spec }));

async function setUp(anonymous: boolean) {
  const tenant = await t.tenant();
  const s = await createStatsSurvey(t, tenant.company.id, { anonymous });
  return { tenant, s };
}

describe('panel statistics', () => {
  it('gives the same figures and reports as /v1 for the same cut', async () => {
    const { tenant, s } = await setUp(false);
    await record(t, s, [...times(3, { dims: { course: 'math' }, answers: { [s.q.nps.id]: 9 } }), ...times(2, { dims: { course: 'hist' }, answers: { [s.q.nps.id]: 3 } }, '2026-03-02')]);
    const member = await panelSession(t, { companyId: tenant.company.id, permissions: ['responses'] });
    for (const [panelPath, v1Path] of [
      [`/statistics/forms/${s.form.id}?from=2026-03-01`, `/forms/${s.form.id}/statistics?from=2026-03-01`],
      [`/statistics/forms/${s.form.id}?dim.course=math`, `/forms/${s.form.id}/statistics?dim.course=math`],
      [`/statistics/forms/${s.form.id}/report?groupBy=dim.course`, `/forms/${s.form.id}/report?groupBy=dim.course`],
    ]) {
      const mine = await panel.get(member, `/panel/api${panelPath}`);
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json().data).toEqual((await t.get(tenant.token, `/v1${v1Path}`)).json().data);
    }
    const outsider = await panelSession(t, { permissions: ['responses'] });
    expect((await panel.get(outsider, `/panel/api/statistics/forms/${s.form.id}`)).statusCode).toBe(404);
    const noPermission = await panelSession(t, { companyId: tenant.company.id, permissions: ['integrations'] });
    expect((await panel.get(noPermission, `/panel/api/statistics/forms/${s.form.id}`)).statusCode).toBe(403);
  });

  it('shows suppressed groups of an anonymous form without figures, and 409 under the floor', async () => {
    const { tenant, s } = await setUp(true);
    await record(t, s, [...times(6, { dims: { course: 'big' } }), ...times(2, { dims: { course: 'small' } })]);
    const member = await panelSession(t, { companyId: tenant.company.id, permissions: ['responses'] });
    const report = await panel.get(member, `/panel/api/statistics/forms/${s.form.id}/report?groupBy=dim.course`);
    expect(report.statusCode, report.body).toBe(200);
    const small = report.json().data.groups.find((g: { key: string }) => g.key === 'small');
    expect(small).toEqual({ key: 'small', suppressed: true });
    const cut = await panel.get(member, `/panel/api/statistics/forms/${s.form.id}?dim.course=small`);
    expect(cut.statusCode).toBe(409);
    expect(cut.json().error).toMatchObject({ code: 'ANONYMITY_SUPPRESSED', details: { floor: 5, authors: 2 } });
  });
});

describe('panel response delete', () => {
  it('deletes a response, the statistics follow at once, the act is audited; again or elsewhere is 404', async () => {
    const { tenant, s } = await setUp(false);
    const ids = await record(t, s, times(3, { answers: { [s.q.stars.id]: 5 } }));
    const member = await panelSession(t, { companyId: tenant.company.id, permissions: ['responses'] });
    const outsider = await panelSession(t, { permissions: ['responses'] });
    expect((await panel.delete(outsider, `/panel/api/responses/${ids[0]}`)).statusCode).toBe(404);
    const reader = await panelSession(t, { companyId: tenant.company.id, permissions: ['integrations'] });
    expect((await panel.delete(reader, `/panel/api/responses/${ids[0]}`)).statusCode).toBe(403);
    expect((await panel.delete(member, `/panel/api/responses/${ids[0]}`, { csrf: false })).statusCode).toBe(403);

    const res = await panel.delete(member, `/panel/api/responses/${ids[0]}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ id: ids[0], deleted: true });
    expect((await panel.get(member, `/panel/api/responses/${ids[0]}`)).statusCode).toBe(404);
    expect((await panel.delete(member, `/panel/api/responses/${ids[0]}`)).statusCode).toBe(404);
    const stats = await panel.get(member, `/panel/api/statistics/forms/${s.form.id}`);
    expect(stats.json().data).toMatchObject({ responseCount: 2 });
    const { rows } = await t.ctx.pool.query('SELECT actor_user_id, details FROM audit_records WHERE company_id = $1 AND action = $2', [tenant.company.id, 'response.deleted']);
    expect(rows).toEqual([{ actor_user_id: member.user.id, details: { responseId: ids[0] } }]);
  });
});
