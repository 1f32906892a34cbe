import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { keyedForm, respondentClient } from '../../../test/respondent.js';
import { LOW_RATING_FLOW } from '../../../test/treatments.js';
import { addFlow } from './flows.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const PUBLIC_SURVEY = {
  slug: 'public-survey',
  name: 'Public survey',
  settings: { isPublic: true },
  sections: [{ key: 'main', name: 'Main', questions: [{ key: 'rating', name: 'Rate us', type: 'STAR', mandatory: true }, { key: 'comment', name: 'Why?', type: 'TEXT' }] }],
};

describe('a submission through the public link', () => {
  it('opens the case in the same transaction as the response, with response.created and treatment.opened; a good rating opens none', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, PUBLIC_SURVEY);
    await addFlow(t.ctx.db, t.ctx, { companyId: tenant.company.id, formIdOrSlug: f.form.id, file: LOW_RATING_FLOW });
    const client = respondentClient(t);
    const url = `/r/v1/forms/${tenant.company.slug}/public-survey/responses`;
    const low = await client.post(url, { answers: { [f.q.rating]: 1, [f.q.comment]: 'Rude staff' } });
    expect(low.statusCode, low.body).toBe(201);
    expect((await client.post(url, { answers: { [f.q.rating]: 5 } })).statusCode).toBe(201);
    const { responseId } = low.json().data;

    const cases = (await t.get(tenant.token, '/v1/treatments')).json();
    expect(cases.meta.total).toBe(1);
    expect(cases.data[0]).toMatchObject({ number: 1, responseId, status: 'open', stepName: 'Call the respondent', formName: 'Public survey' });
    const { rows } = await t.ctx.pool.query(
      `SELECT e.type, e.data FROM events e WHERE e.company_id = $1 ORDER BY e.type`,
      [tenant.company.id],
    );
    expect(rows.map((r) => r.type)).toEqual(['response.created', 'response.created', 'treatment.opened']);
    expect(rows[2].data).toMatchObject({ responseId, number: 1 });
    expect(JSON.stringify(rows[2].data)).not.toContain('Rude staff');
  });
});
