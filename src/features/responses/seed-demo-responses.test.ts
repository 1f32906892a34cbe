import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { demoSeeders } from '../../demo/seed-demo.js';
import { seedFormsAndEntities } from '../../demo/seed-forms.js';
import { isIsoDate } from '../dims/canonical.js';
import { validateAnswers } from '../forms/rules/index.js';
import { findFormBySlug } from '../forms/find-form.js';
import { seedDemoRollups } from '../statistics/seed-demo-rollups.js';
import { seedDemoResponses } from './seed-demo-responses.js';

let t: TestApp;
let company: { id: string; name: string; slug: string };
beforeAll(async () => {
  t = await startTestApp();
  company = await t.company('Demo School');
  await seedFormsAndEntities(t.ctx, company);
  await seedDemoResponses(t.ctx, company);
  await seedDemoRollups(t.ctx, company);
});
afterAll(async () => t?.close());

const query = async (text: string, values: unknown[] = [company.id]) => (await t.ctx.pool.query(text, values)).rows;

describe('demo responses', () => {
  it('run after the demo forms and entities they answer', () => {
    expect(demoSeeders.indexOf(seedDemoResponses)).toBeGreaterThan(demoSeeders.indexOf(seedFormsAndEntities));
  });

  it('are recorded without consumers: no case, goal event or pending rollup row, the rollups built next from them', async () => {
    expect(demoSeeders.indexOf(seedDemoRollups)).toBe(demoSeeders.indexOf(seedDemoResponses) + 1);
    expect(await query('SELECT count(*)::int AS n FROM statistics_rollup_pending WHERE company_id = $1')).toEqual([{ n: 0 }]);
    expect(await query('SELECT count(*)::int AS n FROM events WHERE company_id = $1')).toEqual([{ n: 0 }]);
    const [{ counted, responses }] = await query(
      `SELECT (SELECT coalesce(sum(responses), 0)::int FROM statistics_rollups WHERE company_id = $1 AND cut_key = '' AND span = 'month') AS counted,
              (SELECT count(*)::int FROM responses WHERE company_id = $1) AS responses`,
    );
    expect(counted).toBe(responses);
  });

  it('give every demo form responses spread over several months', async () => {
    const rows = await query(
      `SELECT f.slug, count(r.id)::int AS n, extract(day FROM max(r.created_at) - min(r.created_at))::int AS days
       FROM forms f LEFT JOIN responses r ON r.form_id = f.id WHERE f.company_id = $1 GROUP BY f.slug`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(row.n, row.slug).toBeGreaterThanOrEqual(500);
      expect(row.days, row.slug).toBeGreaterThan(90);
    }
  });

  it('answer each form validly and stamp canonical dims: entity ids, decimal numbers, YYYY-MM-DD dates', async () => {
    const entityIds = new Set((await query('SELECT id FROM entities WHERE company_id = $1')).map((row) => row.id));
    for (const slug of ['term-evaluation', 'orientation-week-2025']) {
      const form = (await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug }))!;
      const responses = await query('SELECT answers, dims, org_unit_id FROM responses WHERE form_id = $1', [form.id]);
      for (const response of responses) {
        expect(validateAnswers(form.content, response.answers)).toEqual([]);
        for (const dim of form.dims) {
          const value = response.dims[dim.key];
          if (value === undefined) continue;
          if (['course', 'teacher', 'unit'].includes(dim.kind)) expect(entityIds.has(value), `${slug} ${dim.key}`).toBe(true);
          if (dim.kind === 'number') expect(value).toMatch(/^-?\d+(\.\d+)?$/);
          if (dim.kind === 'date') expect(isIsoDate(value)).toBe(true);
        }
      }
      const unitDim = form.dims.find((dim) => dim.kind === 'unit');
      expect(responses.every((r) => r.org_unit_id === (r.dims[unitDim!.key] ?? null))).toBe(true);
    }
  });

  it('are scanned by the API with a dim filter', async () => {
    const { token } = await t.key(company.id);
    const form = (await findFormBySlug(t.ctx.db, t.ctx, { companyId: company.id, slug: 'term-evaluation' }))!;
    const [{ course }] = await query(`SELECT dims->>'course' AS course FROM responses WHERE form_id = $1 AND dims ? 'course' LIMIT 1`, [form.id]);
    const res = await t.get(token, `/v1/forms/${form.id}/responses?dim.course=${course}&include=answers`);
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.total).toBeGreaterThan(0);
    expect(res.json().data.every((item: { dims: { course: string } }) => item.dims.course === course)).toBe(true);
  });
});
