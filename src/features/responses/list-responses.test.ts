import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { addResponses, createSurvey, type Survey } from '../../../test/responses.js';
import { importForm } from '../forms/import-form.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

interface Page {
  status: number;
  body: any;
}

async function tenantWithSurvey() {
  const tenant = await t.tenant();
  return { ...tenant, survey: await createSurvey(t, tenant.company.id) };
}

const responsesUrl = (survey: Survey, query = '') => `/v1/forms/${survey.form.id}/responses${query ? `?${query}` : ''}`;

async function getPage(token: string, url: string): Promise<Page> {
  const res = await t.get(token, url);
  return { status: res.statusCode, body: res.json() };
}

/** Follows nextCursor to the end; `between` runs after each page (inserts during the scan). */
async function scan(token: string, survey: Survey, query: string, between?: (pageIndex: number) => Promise<unknown>) {
  const pages: any[] = [];
  let cursor: string | null = null;
  do {
    const extra: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await getPage(token, responsesUrl(survey, query + extra));
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    pages.push(page.body);
    cursor = page.body.meta.nextCursor;
    await between?.(pages.length - 1);
  } while (cursor);
  return { pages, ids: pages.flatMap((page) => page.data.map((item: { id: string }) => item.id)) };
}

function expectError(page: Page, status: number, code: string) {
  expect(page.status, JSON.stringify(page.body)).toBe(status);
  expect(page.body).toMatchObject({ success: false, error: { code } });
}

/** The contract's order: createdAt desc, then id desc (UUIDs compare as their lower-case text). */
function sortedNewestFirst(items: { id: string; createdAt: string }[]) {
  return [...items].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
}

describe('GET /v1/forms/{id}/responses: the cursor rules (docs/contract.md, Pagination)', () => {
  it('the first page is requested without cursor and only it carries meta.total', async () => {
    const { token, survey } = await tenantWithSurvey();
    await addResponses(t, survey, 5, { at: '2026-03-01T10:00:00.000Z' });
    const { pages } = await scan(token, survey, 'limit=2');
    expect(pages).toHaveLength(3);
    expect(pages[0].meta.total).toBe(5);
    for (const page of pages.slice(1)) expect(page.meta).not.toHaveProperty('total');
  });

  it('meta is exactly { limit, hasMore, nextCursor } plus total on the first page', async () => {
    const { token, survey } = await tenantWithSurvey();
    await addResponses(t, survey, 3, { at: '2026-03-01T10:00:00.000Z' });
    const first = await getPage(token, responsesUrl(survey, 'limit=2'));
    expect(Object.keys(first.body.meta).sort()).toEqual(['hasMore', 'limit', 'nextCursor', 'total']);
    expect(first.body.meta).toMatchObject({ limit: 2, hasMore: true, total: 3 });
    expect(typeof first.body.meta.nextCursor).toBe('string');
    const second = await getPage(token, responsesUrl(survey, `limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`));
    expect(second.body.meta).toEqual({ limit: 2, hasMore: false, nextCursor: null });
    const defaults = await getPage(token, responsesUrl(survey));
    expect(defaults.body.meta).toEqual({ limit: 20, hasMore: false, nextCursor: null, total: 3 });
  });

  it('later pages continue from the exact nextCursor string, each row once', async () => {
    const { token, survey } = await tenantWithSurvey();
    const ids = [
      ...(await addResponses(t, survey, 4, { at: '2026-01-10T08:00:00.000Z' })),
      ...(await addResponses(t, survey, 4, { at: '2026-01-11T08:00:00.000Z' })),
      ...(await addResponses(t, survey, 3, { at: '2026-01-12T08:00:00.000Z' })),
    ];
    const { pages, ids: seen } = await scan(token, survey, 'limit=3');
    expect(pages.map((page) => page.data.length)).toEqual([3, 3, 3, 2]);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(ids.length);
  });

  it('hasMore false comes with nextCursor null, also when the last page is exactly full', async () => {
    const { token, survey } = await tenantWithSurvey();
    await addResponses(t, survey, 4, { at: '2026-03-01T10:00:00.000Z' });
    const { pages } = await scan(token, survey, 'limit=2');
    expect(pages.map((page) => [page.meta.hasMore, page.meta.nextCursor === null])).toEqual([
      [true, false],
      [false, true],
    ]);
    const empty = await tenantWithSurvey();
    const none = await getPage(empty.token, responsesUrl(empty.survey));
    expect(none.body).toEqual({ success: true, data: [], meta: { limit: 20, hasMore: false, nextCursor: null, total: 0 } });
  });

  it('total is the count at the start of the scan, with the filters, unchanged by inserts during it', async () => {
    const { token, survey } = await tenantWithSurvey();
    await addResponses(t, survey, 6, { at: '2026-02-01T10:00:00.000Z', dims: { cohortYear: '2025' } });
    await addResponses(t, survey, 4, { at: '2026-02-02T10:00:00.000Z', dims: { cohortYear: '2026' } });
    const { pages } = await scan(token, survey, 'limit=3&dim.cohortYear=2025', () =>
      addResponses(t, survey, 2, { at: '2026-02-03T10:00:00.000Z', dims: { cohortYear: '2025' } }),
    );
    expect(pages[0].meta.total).toBe(6);
    expect(pages.flatMap((page) => page.data)).toHaveLength(6);
    expect((await getPage(token, responsesUrl(survey, 'dim.cohortYear=2025'))).body.meta.total).toBe(6 + 2 * pages.length);
    expect((await getPage(token, responsesUrl(survey))).body.meta.total).toBe(10 + 2 * pages.length);
  });

  describe('the cursor is opaque and bound to the company, the form and the filters', () => {
    async function firstCursor(token: string, survey: Survey, query: string): Promise<string> {
      const page = await getPage(token, responsesUrl(survey, query));
      return page.body.meta.nextCursor;
    }

    it('refuses a cursor with one character changed', async () => {
      const { token, survey } = await tenantWithSurvey();
      await addResponses(t, survey, 3, { at: '2026-03-01T10:00:00.000Z' });
      const cursor = await firstCursor(token, survey, 'limit=1');
      for (const index of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
        const changed = cursor.slice(0, index) + (cursor[index] === 'A' ? 'B' : 'A') + cursor.slice(index + 1);
        expectError(await getPage(token, responsesUrl(survey, `limit=1&cursor=${encodeURIComponent(changed)}`)), 400, 'INVALID_CURSOR');
      }
      expectError(await getPage(token, responsesUrl(survey, 'cursor=not-a-cursor')), 400, 'INVALID_CURSOR');
      expectError(await getPage(token, responsesUrl(survey, `cursor=${cursor.repeat(30)}`)), 400, 'INVALID_CURSOR');
    });

    it("refuses another company's cursor on the caller's own form", async () => {
      const owner = await tenantWithSurvey();
      await addResponses(t, owner.survey, 3, { at: '2026-03-01T10:00:00.000Z' });
      const cursor = await firstCursor(owner.token, owner.survey, 'limit=1');
      const intruder = await tenantWithSurvey();
      await addResponses(t, intruder.survey, 3, { at: '2026-03-01T10:00:00.000Z' });
      expectError(await getPage(intruder.token, responsesUrl(intruder.survey, `limit=1&cursor=${encodeURIComponent(cursor)}`)), 400, 'INVALID_CURSOR');
    });

    it('refuses a cursor reused with other filters or on another form', async () => {
      const { token, survey, company } = await tenantWithSurvey();
      await addResponses(t, survey, 3, { at: '2026-03-01T10:00:00.000Z', dims: { cohortYear: '2026' } });
      const cursor = encodeURIComponent(await firstCursor(token, survey, 'limit=1&dim.cohortYear=2026&from=2026-01-01'));
      for (const query of ['limit=1', 'limit=1&dim.cohortYear=2026', 'limit=1&dim.cohortYear=2025&from=2026-01-01', 'limit=1&dim.cohortYear=2026&from=2026-01-02', 'limit=1&dim.cohortYear=2026&from=2026-01-01&to=2026-12-31']) {
        expectError(await getPage(token, responsesUrl(survey, `${query}&cursor=${cursor}`)), 400, 'INVALID_CURSOR');
      }
      const other = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: { slug: 'other', name: 'Other', sections: [{ key: 's', name: 'S', questions: [] }] } });
      expectError(await getPage(token, `/v1/forms/${other.id}/responses?limit=1&dim.cohortYear=2026&from=2026-01-01&cursor=${cursor}`), 400, 'INVALID_CURSOR');
    });

    it('accepts the cursor with another include or limit: they shape pages, not the row set', async () => {
      const { token, survey } = await tenantWithSurvey();
      await addResponses(t, survey, 5, { at: '2026-03-01T10:00:00.000Z' });
      const cursor = encodeURIComponent(await firstCursor(token, survey, 'limit=1'));
      const next = await getPage(token, responsesUrl(survey, `limit=3&include=answers&cursor=${cursor}`));
      expect(next.status).toBe(200);
      expect(next.body.data).toHaveLength(3);
      expect(next.body.data[0]).toHaveProperty('answers');
    });
  });

  describe('page is refused with PAGE_NOT_SUPPORTED, never ignored', () => {
    it('alone, with a cursor, and before any other bad parameter', async () => {
      const { token, survey } = await tenantWithSurvey();
      await addResponses(t, survey, 2, { at: '2026-03-01T10:00:00.000Z' });
      const cursor = encodeURIComponent((await getPage(token, responsesUrl(survey, 'limit=1'))).body.meta.nextCursor);
      for (const query of ['page=1', 'page=2&limit=1', `page=2&cursor=${cursor}`, 'page=abc&limit=0&include=everything&bogus=1', 'page=']) {
        expectError(await getPage(token, responsesUrl(survey, query)), 400, 'PAGE_NOT_SUPPORTED');
      }
    });

    it('still checks the key and the scope first', async () => {
      const { company, survey } = await tenantWithSurvey();
      const { token } = await t.key(company.id, { scopes: ['invites:write'] });
      expectError(await getPage(token, responsesUrl(survey, 'page=1')), 403, 'FORBIDDEN');
    });
  });

  it('createdAt desc, then id desc, stable over 500 responses of one millisecond paged by 7', async () => {
    const { token, survey } = await tenantWithSurvey();
    const ids = await addResponses(t, survey, 500, { at: '2026-03-01T10:00:00.123Z' });
    const { pages, ids: seen } = await scan(token, survey, 'limit=7');
    expect(pages).toHaveLength(Math.ceil(500 / 7));
    expect(seen).toEqual([...ids].sort().reverse());
  });

  it('across timestamps, every page continues the one order', async () => {
    const { token, survey } = await tenantWithSurvey();
    for (const at of ['2026-01-05T00:00:00.000Z', '2026-01-03T12:00:00.000Z', '2026-01-04T06:30:00.500Z', '2026-01-03T12:00:00.001Z']) {
      await addResponses(t, survey, 3, { at });
    }
    const { pages } = await scan(token, survey, 'limit=5');
    const items = pages.flatMap((page) => page.data);
    expect(items).toHaveLength(12);
    expect(items).toEqual(sortedNewestFirst(items));
  });

  it('rows created during a scan, newer or backdated, never enter that pass; none is skipped or repeated', async () => {
    const { token, survey } = await tenantWithSurvey();
    const before: string[] = [];
    for (let day = 1; day <= 9; day++) before.push(...(await addResponses(t, survey, 5, { at: `2026-01-0${day}T12:00:00.000Z` })));
    const during: string[] = [];
    const insertDuring = async (pageIndex: number) => {
      // Newer rows, rows older than the scan position (skewed clock, backdated import) and rows
      // with the very createdAt of existing ones, while the next page is being read.
      during.push(...(await addResponses(t, survey, 2, { at: '2026-02-01T00:00:00.000Z' })));
      during.push(...(await addResponses(t, survey, 2, { at: '2026-01-01T00:00:00.000Z' })));
      during.push(...(await addResponses(t, survey, 1, { at: `2026-01-0${1 + (pageIndex % 9)}T12:00:00.000Z` })));
    };
    const { ids: seen } = await scan(token, survey, 'limit=7', insertDuring);
    expect(during.length).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...before].sort());
    const { ids: nextPass } = await scan(token, survey, 'limit=100');
    expect(nextPass).toHaveLength(before.length + during.length);
  });

  it('rows inserted concurrently with the page reads stay out of the pass', async () => {
    const { token, survey } = await tenantWithSurvey();
    const before = await addResponses(t, survey, 40, { at: '2026-01-15T12:00:00.000Z' });
    const { ids: seen } = await scan(token, survey, 'limit=4', () =>
      Promise.all([addResponses(t, survey, 1, { at: '2026-01-10T00:00:00.000Z' }), t.get(token, responsesUrl(survey, 'limit=1'))]),
    );
    expect([...seen].sort()).toEqual([...before].sort());
  });
});

describe('GET /v1/forms/{id}/responses: parameters', () => {
  it('answers the spec Response fields, with answers only when include=answers', async () => {
    const { token, survey } = await tenantWithSurvey();
    // Multi-byte and astral characters, quotes and a backslash: the page is encoded into a Buffer sized in bytes.
    const comment = 'Très bien — 很好 👍 "quoted" \\ done';
    const [id] = await addResponses(t, survey, 1, {
      at: '2026-03-01T10:00:00.000Z',
      answers: { [survey.ratingId]: 4, [survey.commentId]: comment },
      dims: { course: survey.courses.MATH101, cohortYear: '2026' },
      respondent: { name: 'Zoë Ñúñez', email: 'ana@example.edu' },
    });
    const item = {
      id,
      formId: survey.form.id,
      respondent: { name: 'Zoë Ñúñez', email: 'ana@example.edu', phone: null, externalId: null },
      completedAt: '2026-03-01T10:00:00.000Z',
      createdAt: '2026-03-01T10:00:00.000Z',
      dims: { course: survey.courses.MATH101, cohortYear: '2026' },
    };
    expect((await getPage(token, responsesUrl(survey))).body.data).toEqual([item]);
    const withAnswers = await getPage(token, responsesUrl(survey, 'include=answers'));
    expect(withAnswers.body.data).toEqual([{ ...item, answers: { [survey.ratingId]: 4, [survey.commentId]: comment } }]);
  });

  it('refuses limit 0, 101 and abc, an unknown include and unknown parameters', async () => {
    const { token, survey } = await tenantWithSurvey();
    for (const [query, path] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['include=questions', 'include'],
      ['sort=asc', 'sort'],
      ['dim.Bad-Key=1', 'dim.Bad-Key'],
      ['dim.course=a&dim.course=b', 'dim.course'],
    ]) {
      const page = await getPage(token, responsesUrl(survey, query));
      expectError(page, 400, 'VALIDATION_ERROR');
      expect(page.body.error.details.fields.map((field: { path: string }) => field.path), query).toContain(path);
    }
    expect((await getPage(token, responsesUrl(survey, 'limit=100'))).status).toBe(200);
  });

  it('refuses from and to that are not real YYYY-MM-DD days, and from after to', async () => {
    const { token, survey } = await tenantWithSurvey();
    for (const query of ['from=2026-02-30', 'to=2026-13-01', 'from=2026-3-1', 'from=2026-03-01T00:00:00Z', 'to=0000-01-01', 'from=2025-02-29', 'from=2026-03-02&to=2026-03-01']) {
      const page = await getPage(token, responsesUrl(survey, query));
      expectError(page, 400, 'VALIDATION_ERROR');
      expect(page.body.error.details.fields[0].path, query).toMatch(/^(from|to)$/);
    }
    expect((await getPage(token, responsesUrl(survey, 'from=2024-02-29&to=2024-02-29'))).status).toBe(200);
  });

  it('from and to are whole UTC days, inclusive at both ends', async () => {
    const { token, survey } = await tenantWithSurvey();
    const at = async (time: string) => (await addResponses(t, survey, 1, { at: time }))[0];
    await at('2026-03-09T23:59:59.999Z');
    const firstIn = await at('2026-03-10T00:00:00.000Z');
    const middle = await at('2026-03-11T12:00:00.000Z');
    const lastIn = await at('2026-03-12T23:59:59.999Z');
    await at('2026-03-13T00:00:00.000Z');
    const both = await scan(token, survey, 'from=2026-03-10&to=2026-03-12&limit=2');
    expect(both.ids).toEqual([lastIn, middle, firstIn]);
    expect(both.pages[0].meta.total).toBe(3);
    expect((await scan(token, survey, 'from=2026-03-12')).ids).toHaveLength(2);
    expect((await scan(token, survey, 'to=2026-03-10')).ids).toHaveLength(2);
    expect((await scan(token, survey, 'from=2026-03-11&to=2026-03-11')).ids).toEqual([middle]);
  });

  it('dim filters compare canonical strings: an entity id, a number, a date, and two ANDed', async () => {
    const { token, survey } = await tenantWithSurvey();
    const { MATH101, HIST101 } = survey.courses;
    const math2026 = await addResponses(t, survey, 3, { at: '2026-03-01T10:00:00.000Z', dims: { course: MATH101, cohortYear: '2026', termStart: '2026-02-02' } });
    const math2025 = await addResponses(t, survey, 2, { at: '2026-03-02T10:00:00.000Z', dims: { course: MATH101, cohortYear: '2025', termStart: '2025-09-01' } });
    const hist2026 = await addResponses(t, survey, 2, { at: '2026-03-03T10:00:00.000Z', dims: { course: HIST101, cohortYear: '2026', termStart: '2026-02-02' } });
    await addResponses(t, survey, 1, { at: '2026-03-04T10:00:00.000Z' });
    const idsFor = async (query: string) => [...(await scan(token, survey, `${query}&limit=2`)).ids].sort();
    expect(await idsFor(`dim.course=${MATH101}`)).toEqual([...math2026, ...math2025].sort());
    expect(await idsFor('dim.cohortYear=2026')).toEqual([...math2026, ...hist2026].sort());
    expect(await idsFor('dim.termStart=2025-09-01')).toEqual([...math2025].sort());
    expect(await idsFor(`dim.course=${MATH101}&dim.cohortYear=2026`)).toEqual([...math2026].sort());
    expect(await idsFor(`dim.course=${HIST101}&dim.termStart=2025-09-01`)).toEqual([]);
    // Compared as strings with the stored form: the code is not the id, 2026.0 is not 2026.
    expect(await idsFor('dim.course=MATH101')).toEqual([]);
    expect(await idsFor('dim.cohortYear=2026.0')).toEqual([]);
    expect(await idsFor('dim.unknownKey=1')).toEqual([]);
    expect((await getPage(token, responsesUrl(survey, `dim.course=${MATH101}&dim.cohortYear=2026`))).body.meta.total).toBe(3);
  });

  it('answers 404 NOT_FOUND for a missing form and for an id that is not a UUID', async () => {
    const { token } = await t.tenant();
    expectError(await getPage(token, '/v1/forms/0190a000-0000-7000-8000-000000000000/responses'), 404, 'NOT_FOUND');
    expectError(await getPage(token, '/v1/forms/not-a-uuid/responses'), 404, 'NOT_FOUND');
  });
});
