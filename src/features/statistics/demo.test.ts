import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { ensureDemo } from '../../demo/seed-demo.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('statistics on the demo data (the README tour)', () => {
  it('gives figures, groups, and visible units on the anonymous form', async () => {
    const demo = await ensureDemo(t.ctx);
    if (!demo.created) throw new Error('expected a fresh demo');
    const forms = (await t.get(demo.token, '/v1/forms?limit=100')).json().data as { id: string; slug: string }[];
    const formId = (slug: string) => forms.find((f) => f.slug === slug)!.id;

    const stats = (await t.get(demo.token, `/v1/forms/${formId('term-evaluation')}/statistics`)).json().data;
    expect(stats.responseCount).toBeGreaterThan(100);
    expect(stats.questions.some((q: any) => q.type === 'NPS' && q.count > 0)).toBe(true);
    // "How many classes did you miss?" (0..60, step 1): whole-number bins and median, not sketch buckets.
    const missed = stats.questions.find((q: any) => q.key === 'missed');
    expect(missed.count).toBeGreaterThan(0);
    expect([missed.median * 2, ...missed.histogram.flatMap((bin: any) => [bin.from, bin.to])].every(Number.isInteger)).toBe(true);
    const cohorts = (await t.get(demo.token, `/v1/forms/${formId('term-evaluation')}/report?groupBy=dim.cohort`)).json().data;
    expect(cohorts.groups.length).toBeGreaterThan(1);

    const anonymous = await t.get(demo.token, `/v1/forms/${formId('orientation-week-2025')}/report?groupBy=orgUnit`);
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    expect(anonymous.json().data.groups.some((g: any) => !g.suppressed)).toBe(true);
  }, 180_000);
});
