import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { ensureDemo } from '../../demo/seed-demo.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('demo roster', () => {
  // The whole demo is seeded (responses included): slow on a shared machine.
  it('gives the demo company six classes, 300 students and a class-linked form', { timeout: 180_000 }, async () => {
    const demo = await ensureDemo(t.ctx);
    if (!demo.created) throw new Error('expected a new demo');
    const enrollments = (await t.get(demo.token, '/v1/enrollments?limit=100')).json();
    expect(enrollments.meta.total).toBe(600);
    expect(enrollments.data[0].class.orgUnitId).toEqual(expect.any(String));
    const dropped = (await t.get(demo.token, '/v1/enrollments?status=dropped')).json();
    expect(dropped.meta.total).toBeGreaterThan(0);
    const groups = (await t.get(demo.token, '/v1/class-groups')).json();
    expect(groups.data).toMatchObject([{ code: '2026', classCount: 6 }]);
    const { rows } = await t.ctx.pool.query(`SELECT dims FROM forms WHERE company_id = $1 AND slug = 'class-feedback'`, [demo.company.id]);
    expect(rows[0].dims.map((d: { source: string }) => d.source)).toEqual(['class', 'class']);
  });
});
