import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { addResponses, createSurvey } from '../../../test/responses.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('GET /v1/responses/{id}', () => {
  it('answers the full record: answers always, plus invite and org unit', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const inviteId = '0190a000-0000-7000-8000-00000000beef';
    const [id] = await addResponses(t, survey, 1, {
      at: '2026-02-10T08:15:30.250Z',
      answers: { [survey.ratingId]: 5 },
      dims: { course: survey.courses.HIST101, termStart: '2026-02-02' },
      respondent: { name: 'Ana', externalId: 'S-1' },
      inviteId,
      org: { unitId: survey.courses.HIST101, path: `/${survey.courses.HIST101}/`, source: 'invite' },
      completedAt: new Date('2026-02-10T08:15:00.000Z'),
    });
    const res = await t.get(token, `/v1/responses/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        id,
        formId: survey.form.id,
        respondent: { name: 'Ana', email: null, phone: null, externalId: 'S-1' },
        answers: { [survey.ratingId]: 5 },
        completedAt: '2026-02-10T08:15:00.000Z',
        createdAt: '2026-02-10T08:15:30.250Z',
        dims: { course: survey.courses.HIST101, termStart: '2026-02-02' },
        inviteId,
        orgUnitId: survey.courses.HIST101,
        orgPath: `/${survey.courses.HIST101}/`,
        orgSource: 'invite',
        presentedOrder: null, // no section of the form shuffles
      },
    });
  });

  it('answers nulls and orgSource none for a public-link response without respondent or org unit', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const [id] = await addResponses(t, survey, 1, { completedAt: null });
    const { data } = (await t.get(token, `/v1/responses/${id}`)).json();
    expect(data).toMatchObject({ respondent: null, completedAt: null, dims: {}, inviteId: null, orgUnitId: null, orgPath: null, orgSource: 'none' });
  });

  it('answers 404 NOT_FOUND for a missing response and for an id that is not a UUID', async () => {
    const { token } = await t.tenant();
    for (const id of ['0190a000-0000-7000-8000-000000000000', 'nope']) {
      const res = await t.get(token, `/v1/responses/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });
});
