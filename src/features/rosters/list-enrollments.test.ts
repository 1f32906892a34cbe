import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { registerSchool, rosterPayload, studentId } from '../../../test/rosters.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

async function schoolWithRoster(classes = 2, perClass = 3) {
  const tenant = await t.tenant();
  await registerSchool(t, tenant.company.id);
  const res = await t.post(tenant.token, '/v1/enrollments/import', rosterPayload(classes, perClass));
  expect(res.statusCode).toBe(200);
  return tenant;
}

interface Row {
  id: string;
  status: string;
  statusChangedAt: string;
  person: { externalId: string };
  class: { code: string; classGroupId: string | null; orgUnitId: string };
}

/** Every page of a scan with these query parameters. */
async function scan(token: string, query: string, limit = 100): Promise<{ rows: Row[]; total: number }> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  let total = -1;
  do {
    const res = await t.get(token, `/v1/enrollments?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    if (!cursor) total = body.meta.total;
    else expect(body.meta.total).toBeUndefined();
    rows.push(...body.data);
    cursor = body.meta.nextCursor;
  } while (cursor);
  return { rows, total };
}

const unitId = async (companyId: string, code: string) =>
  (await t.ctx.pool.query(`SELECT id FROM entities WHERE company_id = $1 AND kind = 'unit' AND code = $2`, [companyId, code])).rows[0].id as string;


describe('GET /v1/enrollments', () => {
  it('returns rows embedding person and class, oldest change first, a page at a time', async () => {
    const { company, token } = await schoolWithRoster(2, 3);
    t.clock.advance(1_000);
    await t.post(token, '/v1/enrollments/import', { mode: 'upsert', enrollments: [{ externalId: studentId(0), classCode: 'C0', status: 'completed' }] });

    const first = await t.get(token, '/v1/enrollments?limit=4');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.meta).toMatchObject({ limit: 4, hasMore: true, total: 6 });
    expect(body.data[0]).toEqual({
      id: expect.any(String),
      status: 'enrolled',
      statusChangedAt: expect.stringMatching(/Z$/),
      createdAt: expect.any(String),
      person: { id: expect.any(String), externalId: expect.any(String), name: expect.any(String), email: expect.any(String), phone: null },
      class: { id: expect.any(String), code: expect.any(String), name: expect.any(String), classGroupId: expect.any(String), courseItemId: expect.any(String), orgUnitId: expect.any(String) },
    });
    const { rows } = await scan(token, '', 4);
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.id)).size).toBe(6);
    expect(rows.at(-1)).toMatchObject({ status: 'completed', person: { externalId: studentId(0) }, statusChangedAt: t.clock.now().toISOString() });
    const keys = rows.map((r) => `${r.statusChangedAt}|${r.id}`);
    expect([...keys].sort()).toEqual(keys);

    const other = await t.tenant();
    expect((await scan(other.token, '')).rows).toEqual([]);
    expect(company.id).not.toBe(other.company.id);
  });

  it('filters by status, classCode, classGroupId, orgUnitId (its subtree) and changedSince, inclusive at the border', async () => {
    const { company, token } = await schoolWithRoster(3, 2);
    const border = t.clock.now().toISOString();
    t.clock.advance(1_000);
    const drop = await t.post(token, '/v1/enrollments/import', { mode: 'upsert', enrollments: [{ externalId: studentId(2), classCode: 'C1', status: 'dropped' }] });
    expect(drop.json()).toMatchObject({ data: { updated: { enrollments: 1 } } });
    const codes = (rows: Row[]) => rows.map((r) => `${r.class.code}:${r.person.externalId}`).sort();

    expect(codes((await scan(token, '&status=dropped')).rows)).toEqual(['C1:S00002']);
    expect((await scan(token, '&classCode=C2')).rows.map((r) => r.class.code)).toEqual(['C2', 'C2']);
    const groupId = (await scan(token, '')).rows[0].class.classGroupId!;
    expect((await scan(token, `&classGroupId=${groupId}`)).total).toBe(6);
    expect((await scan(token, '&classGroupId=00000000-0000-7000-8000-000000000000')).total).toBe(0);
    // C0 and C2 sit in north-1, under north; C1 in south.
    expect(codes((await scan(token, `&orgUnitId=${await unitId(company.id, 'north')}`)).rows)).toEqual(['C0:S00000', 'C0:S00001', 'C2:S00004', 'C2:S00005']);
    expect((await scan(token, `&orgUnitId=${await unitId(company.id, 'south')}`)).total).toBe(2);
    expect((await scan(token, `&changedSince=${encodeURIComponent(border)}`)).total).toBe(6);
    const after = new Date(Date.parse(border) + 1).toISOString();
    expect(codes((await scan(token, `&changedSince=${encodeURIComponent(after)}`)).rows)).toEqual(['C1:S00002']);
    expect((await scan(token, `&changedSince=${encodeURIComponent(t.clock.now().toISOString())}&status=dropped`)).total).toBe(1);
  });

  it('refuses bad parameters, page, and cursors reused with other filters or by another company', async () => {
    const { token } = await schoolWithRoster(1, 3);
    for (const query of ['changedSince=yesterday', 'changedSince=0000-01-01T00:00:00Z', 'status=gone', 'orgUnitId=north', 'limit=101', 'colour=red']) {
      const res = await t.get(token, `/v1/enrollments?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const paged = await t.get(token, '/v1/enrollments?page=2');
    expect(paged.json().error.code).toBe('PAGE_NOT_SUPPORTED');
    const first = (await t.get(token, '/v1/enrollments?limit=1&status=enrolled')).json();
    const cursor = encodeURIComponent(first.meta.nextCursor);
    expect((await t.get(token, `/v1/enrollments?limit=1&status=enrolled&cursor=${cursor}`)).statusCode).toBe(200);
    expect((await t.get(token, `/v1/enrollments?limit=1&cursor=${cursor}`)).json().error.code).toBe('INVALID_CURSOR');
    const other = await t.tenant();
    expect((await t.get(other.token, `/v1/enrollments?limit=1&status=enrolled&cursor=${cursor}`)).json().error.code).toBe('INVALID_CURSOR');
    expect((await t.get(token, '/v1/enrollments?cursor=abc.def')).json().error.code).toBe('INVALID_CURSOR');
  });

  it('a changedSince loop running while imports commit sees every change at least once', async () => {
    const { company, token } = await schoolWithRoster(4, 25);
    const statuses = ['enrolled', 'completed', 'dropped'];
    // The clock runs while the imports and the scans interleave.
    const ticker = setInterval(() => t.clock.advance(1), 1);
    let writing = true;
    const writer = (async () => {
      for (let round = 1; round <= 8; round++) {
        const enrollments = Array.from({ length: 100 }, (_, i) => i)
          .filter((i) => (i + round) % 3 === 0)
          .map((i) => ({ externalId: studentId(i), classCode: `C${Math.floor(i / 25)}`, status: statuses[(round + Math.floor(i / 3)) % statuses.length] }));
        const res = await t.post(token, '/v1/enrollments/import', { mode: 'upsert', enrollments });
        expect(res.statusCode).toBe(200);
      }
      writing = false;
    })();
    const seen = new Map<string, number>();
    let since: string | null = null;
    let scans = 0;
    try {
      for (let last = false; !last; ) {
        last = !writing;
        const startedAt = t.clock.now().toISOString();
        const { rows } = await scan(token, since ? `&changedSince=${encodeURIComponent(since)}` : '', 20);
        for (const row of rows) seen.set(row.id, Math.max(seen.get(row.id) ?? 0, Date.parse(row.statusChangedAt)));
        since = startedAt;
        scans += 1;
      }
      await writer;
    } finally {
      clearInterval(ticker);
    }
    expect(scans).toBeGreaterThan(2);
    const { rows: changes } = await t.ctx.pool.query<{ enrollment_id: string; changed_at: Date }>(
      `SELECT enrollment_id, changed_at FROM enrollment_changes WHERE company_id = $1`,
      [company.id],
    );
    expect(changes.length).toBeGreaterThan(100);
    const missed = changes.filter((c) => (seen.get(c.enrollment_id) ?? 0) < c.changed_at.getTime());
    expect(missed).toEqual([]);
  });
});

describe('GET /v1/class-groups', () => {
  it('lists class groups with their class count, offset form', async () => {
    const { token } = await schoolWithRoster(3, 1);
    t.clock.advance(1_000);
    await t.post(token, '/v1/enrollments/import', {
      mode: 'upsert',
      classGroups: [{ code: 'Y2027', name: 'Year 2027' }],
      enrollments: [],
    });
    const res = await t.get(token, '/v1/class-groups?limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: [
        {
          id: expect.any(String),
          code: 'Y2027',
          name: 'Year 2027',
          startsOn: null,
          endsOn: null,
          classCount: 0,
          createdAt: t.clock.now().toISOString(),
          updatedAt: t.clock.now().toISOString(),
        },
      ],
      meta: { page: 1, limit: 1, total: 2, totalPages: 2 },
    });
    const second = (await t.get(token, '/v1/class-groups?limit=1&page=2')).json();
    expect(second.data[0]).toMatchObject({ code: 'Y2026', startsOn: '2026-02-01', endsOn: '2026-12-15', classCount: 3 });
    expect((await t.get(token, '/v1/class-groups?page=9')).json()).toMatchObject({ data: [], meta: { total: 2 } });
    expect((await t.get(token, '/v1/class-groups?cursor=x')).statusCode).toBe(400);
    const other = await t.tenant();
    expect((await t.get(other.token, '/v1/class-groups')).json().meta.total).toBe(0);
  });
});
