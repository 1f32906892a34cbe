import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { registerSchool, rosterPayload, studentId } from '../../../test/rosters.js';
import { createSubscription } from '../webhooks/create-subscription.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

async function school() {
  const tenant = await t.tenant();
  await registerSchool(t, tenant.company.id);
  return tenant;
}

const importRoster = (token: string, body: unknown) => t.post(token, '/v1/enrollments/import', body);

async function scalar(query: string, params: unknown[]): Promise<number> {
  const { rows } = await t.ctx.pool.query(query, params);
  return Number(Object.values(rows[0])[0]);
}
const countOf = (table: string, companyId: string) => scalar(`SELECT count(*) FROM ${table} WHERE company_id = $1`, [companyId]);
const droppedEvents = (companyId: string) => scalar(`SELECT count(*) FROM events WHERE company_id = $1 AND type = 'enrollment.dropped'`, [companyId]);

describe('POST /v1/enrollments/import', () => {
  it('creates people, class groups, classes and enrollments, and a second identical import changes nothing', async () => {
    const { company, token } = await school();
    const first = await importRoster(token, rosterPayload(2, 3));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      success: true,
      data: {
        dryRun: false,
        created: { people: 6, classes: 2, classGroups: 1, enrollments: 6 },
        updated: { people: 0, classes: 0, classGroups: 0, enrollments: 0 },
        unchanged: { people: 0, classes: 0, classGroups: 0, enrollments: 0 },
        dropped: 0,
        errors: [],
      },
    });
    const again = await importRoster(token, rosterPayload(2, 3));
    expect(again.json().data).toMatchObject({
      created: { people: 0, classes: 0, classGroups: 0, enrollments: 0 },
      updated: { people: 0, classes: 0, classGroups: 0, enrollments: 0 },
      unchanged: { people: 6, classes: 2, classGroups: 1, enrollments: 6 },
    });
    expect(await countOf('enrollment_changes', company.id)).toBe(6);
  });

  it('re-importing the same 10,000 rows in sync mode changes nothing and emits nothing', async () => {
    const { company, token } = await school();
    const payload = rosterPayload(40, 250, { mode: 'sync' });
    expect(payload.enrollments).toHaveLength(10_000);
    const first = await importRoster(token, payload);
    expect(first.json().data.created).toEqual({ people: 10_000, classes: 40, classGroups: 1, enrollments: 10_000 });
    const lastStamp = async () => (await t.ctx.pool.query(`SELECT max(status_changed_at) AS at FROM enrollments WHERE company_id = $1`, [company.id])).rows[0].at;
    const stampsBefore = await lastStamp();
    t.clock.advance(60_000);
    const again = await importRoster(token, payload);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({
      created: { people: 0, classes: 0, classGroups: 0, enrollments: 0 },
      updated: { people: 0, classes: 0, classGroups: 0, enrollments: 0 },
      unchanged: { people: 10_000, classes: 40, classGroups: 1, enrollments: 10_000 },
      dropped: 0,
    });
    expect(await droppedEvents(company.id)).toBe(0);
    expect(await countOf('enrollment_changes', company.id)).toBe(10_000);
    expect(await scalar(`SELECT count(*) FROM people WHERE company_id = $1 AND updated_at > created_at`, [company.id])).toBe(0);
    expect(await lastStamp()).toEqual(stampsBefore);
  });

  it('refuses a sync that would drop 30% of a class with maxDropRatio 0.2, applying nothing, and names the class', async () => {
    const { company, token } = await school();
    await importRoster(token, rosterPayload(2, 10));
    const partial = rosterPayload(2, 10, { mode: 'sync', maxDropRatio: 0.2 });
    // Class C0 loses 3 of its 10 students; C1 keeps all; a new person arrives too.
    partial.enrollments = partial.enrollments.filter((e) => !['S00000', 'S00001', 'S00002'].includes(e.externalId));
    partial.people.push({ externalId: 'NEW', name: 'New Student', email: 'new@school.test' });
    partial.enrollments.push({ externalId: 'NEW', classCode: 'C1', status: 'enrolled' });
    const res = await importRoster(token, partial);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'DROP_THRESHOLD_EXCEEDED',
      details: { maxDropRatio: 0.2, classes: [{ classCode: 'C0', active: 10, dropping: 3, ratio: 0.3 }] },
    });
    expect(await scalar(`SELECT count(*) FROM enrollments WHERE company_id = $1 AND status = 'dropped'`, [company.id])).toBe(0);
    expect(await scalar(`SELECT count(*) FROM people WHERE company_id = $1 AND external_id = 'NEW'`, [company.id])).toBe(0);
    expect(await droppedEvents(company.id)).toBe(0);

    // With a ratio that allows it, the same payload drops the three and tells the world, once each,
    // to the subscriptions that want the type.
    await createSubscription(t.ctx.db, t.ctx, { companyId: company.id, url: 'http://127.0.0.1:9/drops', types: ['enrollment.dropped'] });
    await createSubscription(t.ctx.db, t.ctx, { companyId: company.id, url: 'http://127.0.0.1:9/pings', types: ['ping'] });
    const allowed = await importRoster(token, { ...partial, maxDropRatio: 0.3 });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().data).toMatchObject({ dropped: 3, created: { people: 1, enrollments: 1 } });
    expect(await droppedEvents(company.id)).toBe(3);
    expect(await countOf('webhook_deliveries', company.id)).toBe(3);
    const again = await importRoster(token, { ...partial, maxDropRatio: 0.3 });
    expect(again.json().data).toMatchObject({ dropped: 0, created: { enrollments: 0 }, updated: { enrollments: 0 } });
    expect(await droppedEvents(company.id)).toBe(3);
  });

  it('emits enrollment.dropped with the spec data for an explicit drop, and nothing for a new enrollment that starts dropped', async () => {
    const { company, token } = await school();
    await importRoster(token, rosterPayload(1, 2));
    await t.ctx.pool.query(`UPDATE enrollments SET status = 'completed' WHERE company_id = $1 AND person_id = (SELECT id FROM people WHERE company_id = $1 AND external_id = 'S00001')`, [company.id]);
    t.clock.advance(5_000);
    const res = await importRoster(token, {
      mode: 'upsert',
      people: [{ externalId: 'LATE', name: 'Late Student' }],
      enrollments: [
        { externalId: 'S00001', classCode: 'C0', status: 'dropped' },
        { externalId: 'LATE', classCode: 'C0', status: 'dropped' },
      ],
    });
    expect(res.json().data).toMatchObject({ created: { enrollments: 1 }, updated: { enrollments: 1 }, dropped: 0 });
    const { rows } = await t.ctx.pool.query(`SELECT data, occurred_at FROM events WHERE company_id = $1 AND type = 'enrollment.dropped'`, [company.id]);
    expect(rows).toHaveLength(1);
    const ids = (await t.ctx.pool.query(
      `SELECT e.id AS enrollment, p.id AS person, c.id AS class, c.course_item_id AS course, c.org_unit_id AS unit
         FROM enrollments e JOIN people p ON p.id = e.person_id JOIN classes c ON c.id = e.class_id
        WHERE e.company_id = $1 AND p.external_id = 'S00001'`,
      [company.id],
    )).rows[0];
    expect(rows[0].data).toEqual({
      enrollmentId: ids.enrollment,
      classId: ids.class,
      personId: ids.person,
      classCode: 'C0',
      className: 'Class 0',
      externalId: 'S00001',
      name: 'Student 1',
      email: 's1@school.test',
      phone: null,
      status: 'dropped',
      previousStatus: 'completed',
      courseItemId: ids.course,
      orgUnitId: ids.unit,
      changedAt: t.clock.now().toISOString(),
    });
    const history = await t.ctx.pool.query(
      `SELECT h.from_status, h.to_status, o.kind FROM enrollment_changes h JOIN roster_operations o ON o.id = h.operation_id
        WHERE h.enrollment_id = $1 ORDER BY h.changed_at`,
      [ids.enrollment],
    );
    expect(history.rows).toEqual([
      { from_status: null, to_status: 'enrolled', kind: 'import' },
      { from_status: 'completed', to_status: 'dropped', kind: 'import' },
    ]);
  });

  it('reports malformed rows with their index and path and applies the rest', async () => {
    const { company, token } = await school();
    const res = await importRoster(token, {
      mode: 'upsert',
      classes: [
        { code: 'OK', name: 'Fine class', courseCode: 'MATH', orgUnitCode: 'south' },
        { code: 'NOCOURSE', name: 'No course', orgUnitCode: 'south' },
        { code: 'BADUNIT', name: 'Bad unit', courseCode: 'MATH', orgUnitCode: 'atlantis' },
      ],
      people: [
        { externalId: 'A', name: 'Ann', phone: '+55 11 91234-5678' },
        { externalId: 'B', name: 'Bob', email: 'not-an-address' },
        { externalId: 'C', name: 'Cid' },
      ],
      enrollments: [
        { externalId: 'A', classCode: 'OK', status: 'enrolled' },
        { externalId: 'A', classCode: 'NOWHERE', status: 'enrolled' },
        { externalId: 'C', classCode: 'OK', status: 'graduated' },
        { externalId: 'A', classCode: 'OK', status: 'completed' },
        { externalId: 'B', classCode: 'OK', status: 'enrolled' },
        { externalId: 'ZED', classCode: 'OK', status: 'enrolled' },
        'not a row',
        { externalId: 'C', classCode: 'NOCOURSE', status: 'enrolled' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.errors.map((e: { index: number; path: string; code: string }) => [e.index, e.path, e.code])).toEqual([
      [1, 'classes[1].courseCode', 'required'],
      [2, 'classes[2].orgUnitCode', 'unknown_entity'],
      [1, 'enrollments[1].classCode', 'unknown_reference'],
      [2, 'enrollments[2].status', 'invalid_value'],
      [3, 'enrollments[3]', 'not_unique'],
      [4, 'enrollments[4].externalId', 'unknown_reference'],
      [5, 'enrollments[5].externalId', 'unknown_reference'],
      [6, 'enrollments[6]', 'invalid_type'],
      [7, 'enrollments[7].classCode', 'unknown_reference'],
      [1, 'people[1].email', 'invalid_format'],
    ]);
    expect(data.created).toEqual({ people: 2, classes: 1, classGroups: 0, enrollments: 1 });
    const { rows } = await t.ctx.pool.query(`SELECT external_id, phone FROM people WHERE company_id = $1 ORDER BY external_id`, [company.id]);
    expect(rows).toEqual([
      { external_id: 'A', phone: '+5511912345678' },
      { external_id: 'C', phone: null },
    ]);
    expect(await scalar(`SELECT count(*) FROM enrollments e JOIN classes c ON c.id = e.class_id WHERE e.company_id = $1 AND c.code = 'OK' AND e.status = 'enrolled'`, [company.id])).toBe(1);
  });

  it('never drops an enrollment a malformed row names', async () => {
    const { company, token } = await school();
    await importRoster(token, rosterPayload(1, 5));
    const payload = rosterPayload(1, 5, { mode: 'sync', maxDropRatio: 0 });
    payload.enrollments[0] = { ...payload.enrollments[0], status: 'on-leave' };
    const res = await importRoster(token, payload);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ dropped: 0, errors: [{ index: 0, code: 'invalid_value' }] });
    expect(await scalar(`SELECT count(*) FROM enrollments WHERE company_id = $1 AND status = 'dropped'`, [company.id])).toBe(0);
  });

  it('a dry run reports what the import would do and applies nothing', async () => {
    const { company, token } = await school();
    const res = await importRoster(token, rosterPayload(1, 4, { dryRun: true }));
    expect(res.json().data).toMatchObject({ dryRun: true, created: { people: 4, classes: 1, classGroups: 1, enrollments: 4 } });
    expect(await countOf('people', company.id)).toBe(0);
    expect(await countOf('roster_operations', company.id)).toBe(0);
  });

  it('two concurrent imports of overlapping rows leave no duplicate person or enrollment', async () => {
    const { company, token } = await school();
    const a = rosterPayload(3, 20);
    const b = rosterPayload(3, 20);
    b.enrollments = b.enrollments.map((e, i) => (i % 2 === 0 ? { ...e, status: 'completed' } : e));
    const answers = await Promise.all([importRoster(token, a), importRoster(token, b), importRoster(token, a)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await countOf('people', company.id)).toBe(60);
    expect(await countOf('enrollments', company.id)).toBe(60);
    expect(await countOf('classes', company.id)).toBe(3);
    const created = answers.reduce((sum, r) => sum + r.json().data.created.enrollments, 0);
    expect(created).toBe(60);
  });

  it("keeps companies apart: another company's classes and people are unknown", async () => {
    const one = await school();
    const two = await school();
    await importRoster(one.token, rosterPayload(1, 2));
    const res = await importRoster(two.token, { mode: 'upsert', enrollments: [{ externalId: studentId(0), classCode: 'C0', status: 'enrolled' }] });
    expect(res.json().data.errors.map((e: { code: string }) => e.code)).toEqual(['unknown_reference']);
    expect(await countOf('enrollments', two.company.id)).toBe(0);
  });

  it('refuses more than 10,000 rows, a bad mode and a bad ratio with VALIDATION_ERROR', async () => {
    const { token } = await school();
    const rows = Array.from({ length: 10_001 }, (_, i) => ({ externalId: `P${i}`, classCode: 'C', status: 'enrolled' }));
    for (const body of [
      { mode: 'upsert', enrollments: rows },
      { mode: 'replace', enrollments: [] },
      { mode: 'sync', maxDropRatio: 1.5, enrollments: [] },
      { mode: 'sync' },
    ]) {
      const res = await importRoster(token, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('accepts a body over 1 MiB on this route and answers 413 PAYLOAD_TOO_LARGE past 10 MiB', async () => {
    const { token } = await school();
    const padding = 'x'.repeat(180);
    const big = rosterPayload(1, 1);
    big.people = Array.from({ length: 9_000 }, (_, i) => ({ externalId: `P${i}`, name: `${padding}${i}`.slice(0, 200), email: `p${i}@school.test` }));
    const body = JSON.stringify(big);
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const ok = await t.request(token, { method: 'POST', url: '/v1/enrollments/import', payload: body, headers: { 'content-type': 'application/json' } });
    expect(ok.statusCode).toBe(200);
    const huge = `{"mode":"upsert","enrollments":[],"people":[${`{"externalId":"x","name":"${'y'.repeat(1000)}"},`.repeat(10_600)}{"externalId":"z","name":"z"}]}`;
    expect(huge.length).toBeGreaterThan(10 * 1024 * 1024);
    const tooBig = await t.request(token, { method: 'POST', url: '/v1/enrollments/import', payload: huge, headers: { 'content-type': 'application/json' } });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
