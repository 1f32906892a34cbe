import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { respondentClient } from '../../../test/respondent.js';
import { createSurvey } from '../../../test/responses.js';
import { registerSchool, rosterPayload, studentId } from '../../../test/rosters.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const S = studentId;

/**
 * Two classes: C0 (MATH, unit north-1 under north, teacher T1) holds S0–S2; C1 (HIST, south,
 * teacher T2) holds S3–S5 and S0 as well; S5's enrollment is dropped.
 */
async function school(token: string) {
  const payload = rosterPayload(2, 3);
  payload.classes[1].teacherCodes = ['T2'];
  payload.enrollments.push({ externalId: S(0), classCode: 'C1', status: 'enrolled' });
  payload.enrollments[5].status = 'dropped';
  const imported = await t.post(token, '/v1/enrollments/import', payload);
  expect(imported.statusCode).toBe(200);
}

async function inviteOf(token: string, formId: string, externalId: string) {
  const res = await t.post(token, `/v1/forms/${formId}/invites`, { email: `${externalId.toLowerCase()}@school.test`, externalId });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; token: string };
}

const setStatus = (id: string, status: string, stamps = '') =>
  t.ctx.db.execute(sql`UPDATE invites SET status = ${status} ${sql.raw(stamps)} WHERE id = ${id}`);

const figures = (invited: number, sent: number, delivered: number, opened: number, started: number, responded: number) => ({
  invited,
  sent,
  delivered,
  opened,
  started,
  responded,
  rates: Object.fromEntries(
    Object.entries({ sent, delivered, opened, started, responded }).map(([k, n]) => [k, invited === 0 ? null : Math.round((n / invited) * 10_000) / 10_000]),
  ),
});

describe('GET /v1/forms/{id}/response-rates', () => {
  it('counts how far the invites got, overall and per class, class group, course, teacher and unit subtree', async () => {
    const { company, token } = await t.tenant();
    await registerSchool(t, company.id);
    await school(token);
    const survey = await createSurvey(t, company.id);
    const formId = survey.form.id;
    const inv = Object.fromEntries(
      await Promise.all([S(0), S(1), S(2), S(3), S(4), S(5), 'OUTSIDER'].map(async (id) => [id, await inviteOf(token, formId, id)] as const)),
    );
    // S0 answers through the personal link (opened, started, responded on the way).
    const client = respondentClient(t);
    const submitted = await client.post(`/r/v1/invites/${inv[S(0)].token}/submit`, { answers: { [survey.ratingId]: 4 } });
    expect(submitted.statusCode).toBe(201);
    await setStatus(inv[S(1)].id, 'delivered');
    await setStatus(inv[S(3)].id, 'opened', `, opened_at = now()`);
    await setStatus(inv[S(5)].id, 'sent');
    // S4's message left, then bounced: still sent once.
    const [batch] = (await t.ctx.db.execute<{ id: string }>(sql`
      INSERT INTO invite_batches (id, company_id, form_id, kind, channel, created_at)
      VALUES (gen_random_uuid(), ${company.id}, ${formId}, 'send', 'email', now()) RETURNING id`)).rows;
    await t.ctx.db.execute(sql`
      INSERT INTO invite_messages (id, company_id, invite_id, batch_id, channel, status, due_at, quota_period, created_at)
      VALUES (gen_random_uuid(), ${company.id}, ${inv[S(4)].id}, ${batch.id}, 'email', 'sent', now(), '2026-03', now())`);
    await setStatus(inv[S(4)].id, 'failed');
    expect((await t.post(token, `/v1/invites/${inv[S(2)].id}/revoke`)).statusCode).toBe(200);

    const res = await t.get(token, `/v1/forms/${formId}/response-rates`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.formId).toBe(formId);
    expect(data.at).toBe(t.clock.now().toISOString());
    // Non-revoked: S0, S1, S3, S4, S5 and the outsider; the outsider is in no group, S5 (dropped) neither.
    expect(data.overall).toEqual(figures(6, 5, 3, 2, 1, 1));
    const c0 = figures(2, 2, 2, 1, 1, 1); // S0, S1 of S0–S2 (S2 revoked)
    const c1 = figures(3, 3, 2, 2, 1, 1); // S0, S3, S4 (S5 dropped)
    const both = figures(4, 4, 3, 2, 1, 1); // S0 once
    const group = (code: string, name: string, enrolled: number, f: object) => ({ id: expect.any(String), code, name, enrolled, ...f });
    expect(data.groups.class).toEqual([group('C0', 'Class 0', 3, c0), group('C1', 'Class 1', 3, c1)]);
    expect(data.groups.classGroup).toEqual([group('Y2026', 'Year 2026', 5, both)]);
    expect(data.groups.course).toEqual([group('HIST', 'History', 3, c1), group('MATH', 'Mathematics', 3, c0)]);
    expect(data.groups.teacher).toEqual([group('T1', 'Teacher One', 3, c0), group('T2', 'Teacher Two', 3, c1)]);
    expect(data.groups.orgUnit).toEqual([group('north', 'North', 3, c0), group('north-1', 'North annex', 3, c0), group('south', 'South', 3, c1)]);
    expect(data.overall.rates.sent).toBe(0.8333);

    // Current to the moment: a second answer shows at once.
    const again = await client.post(`/r/v1/invites/${inv[S(3)].token}/submit`, { answers: { [survey.ratingId]: 2 } });
    expect(again.statusCode).toBe(201);
    const after = (await t.get(token, `/v1/forms/${formId}/response-rates`)).json().data;
    expect(after.overall.responded).toBe(2);
    expect(after.groups.class[1]).toMatchObject({ code: 'C1', responded: 2, rates: { responded: 0.6667 } });
  });

  it('a form without invites has zero counts, null rates and no groups', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const data = (await t.get(token, `/v1/forms/${survey.form.id}/response-rates`)).json().data;
    expect(data.overall).toEqual(figures(0, 0, 0, 0, 0, 0));
    expect(data.groups).toEqual({ class: [], classGroup: [], course: [], teacher: [], orgUnit: [] });
  });

  it("another company's form and a malformed id are 404; a key without reports:read is 403", async () => {
    const owner = await t.tenant();
    const other = await t.tenant();
    const survey = await createSurvey(t, owner.company.id);
    const hidden = await t.get(other.token, `/v1/forms/${survey.form.id}/response-rates`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.code).toBe('NOT_FOUND');
    expect((await t.get(owner.token, '/v1/forms/not-a-uuid/response-rates')).statusCode).toBe(404);
    const { token } = await t.key(owner.company.id, { scopes: ['surveys:read'] });
    const refused = await t.get(token, `/v1/forms/${survey.form.id}/response-rates`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
  });
});
