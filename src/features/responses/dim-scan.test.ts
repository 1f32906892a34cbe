import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { addResponses, createSurvey, type Survey } from '../../../test/responses.js';
import { deleteResponse } from '../statistics/delete-response.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const url = (survey: Survey, query: string) => `/v1/forms/${survey.form.id}/responses?${query}`;

/** Follows nextCursor to the end; `between` runs after each page. */
async function scan(token: string, survey: Survey, query: string, between?: () => Promise<unknown>) {
  const pages: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await t.get(token, url(survey, query + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '')));
    expect(res.statusCode, res.body).toBe(200);
    pages.push(res.json());
    cursor = pages.at(-1).meta.nextCursor;
    await between?.();
  } while (cursor);
  return { total: pages[0].meta.total, items: pages.flatMap((page) => page.data) as { id: string; createdAt: string; dims: Record<string, string> }[] };
}

const newestFirst = (items: { id: string; createdAt: string }[]) =>
  [...items].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1)).map((item) => item.id);

const sideRows = async (formId: string) =>
  Number((await t.ctx.pool.query(`SELECT count(*) FROM response_dim_scan WHERE form_id = $1`, [formId])).rows[0].count);

/** The path a single-dim scan took, from its cursor's position (base64url JSON, then the MAC): w, walking responses_scan_idx. */
const walks = (cursor: string) => JSON.parse(Buffer.from(cursor.split('.')[0], 'base64url').toString()).p.w as boolean;

/**
 * A value of at least 30% of the form walks responses_scan_idx, a rarer one takes response_dim_scan
 * (scan-paths.ts, WALK_SHARE): the same tests for both, the values made rare by responses
 * without dims.
 */
describe.each([
  { path: 'responses_scan_idx walk (frequent values)', filler: 0, walk: true },
  { path: 'response_dim_scan (rare values)', filler: 250, walk: false },
])('GET /v1/forms/{id}/responses with one dim filter: $path', ({ filler, walk }) => {
  const withFiller = async (survey: Survey) => {
    if (filler > 0) await addResponses(t, survey, filler, { at: '2026-01-15T10:00:00.000Z' });
  };

  it('takes that path, deciding on the share of the period', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    await withFiller(survey);
    await addResponses(t, survey, 20, { at: '2026-02-01T10:00:00.000Z', dims: { cohortYear: '2025' } });
    // Within February the value is every response, whatever the rest of the form holds.
    for (const [query, expected] of [['', walk], ['&from=2026-01-01', walk], ['&from=2026-02-01', true]] as const) {
      const res = await t.get(token, url(survey, `limit=1&dim.cohortYear=2025${query}`));
      expect(walks(res.json().meta.nextCursor), query).toBe(expected);
    }
  });

  it('pages through exactly the matching responses in scan order, with a period, and follows deletions', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    await withFiller(survey);
    // Another company's responses with the same value stay out.
    const other = await t.tenant();
    await addResponses(t, await createSurvey(t, other.company.id), 3, { at: '2026-02-01T10:00:00.000Z', dims: { cohortYear: '2025' } });
    // Ties in one millisecond exercise the id tie-break.
    await addResponses(t, survey, 4, { at: '2026-02-01T10:00:00.000Z', dims: { cohortYear: '2025', course: survey.courses.MATH101 } });
    await addResponses(t, survey, 3, { at: '2026-02-02T10:00:00.000Z', dims: { cohortYear: '2025' } });
    await addResponses(t, survey, 5, { at: '2026-02-02T11:00:00.000Z', dims: { cohortYear: '2026' } });
    await addResponses(t, survey, 2, { at: '2026-02-03T10:00:00.000Z', dims: { cohortYear: '2025' } });
    await addResponses(t, survey, 2, { at: '2026-02-03T11:00:00.000Z' });
    expect(await sideRows(survey.form.id)).toBe(4 * 2 + 3 + 5 + 2);

    const all = await scan(token, survey, 'limit=100');
    const expected = (keep: (item: (typeof all.items)[0]) => boolean) => newestFirst(all.items.filter(keep));
    const of2025 = (item: (typeof all.items)[0]) => item.dims.cohortYear === '2025';

    for (const limit of [1, 2, 3, 100]) {
      const filtered = await scan(token, survey, `limit=${limit}&dim.cohortYear=2025`);
      expect(filtered.items.map((item) => item.id), `limit ${limit}`).toEqual(expected(of2025));
      expect(filtered.total).toBe(9);
    }
    const period = await scan(token, survey, 'limit=2&dim.cohortYear=2025&from=2026-02-02&to=2026-02-02');
    expect(period.items.map((item) => item.id)).toEqual(expected((item) => of2025(item) && item.createdAt.startsWith('2026-02-02')));
    expect(period.total).toBe(3);
    const byCourse = await scan(token, survey, `limit=3&dim.course=${survey.courses.MATH101}`);
    expect(byCourse.items.map((item) => item.id)).toEqual(expected((item) => item.dims.course === survey.courses.MATH101));
    expect((await scan(token, survey, 'dim.cohortYear=1999')).items).toEqual([]);

    const [gone] = expected(of2025);
    await t.ctx.db.transaction((tx) => deleteResponse(tx, t.ctx, { companyId: company.id, responseId: gone }));
    expect(await sideRows(survey.form.id)).toBe(4 * 2 + 3 + 5 + 2 - 1);
    const after = await scan(token, survey, 'limit=4&dim.cohortYear=2025');
    expect(after.items.map((item) => item.id)).toEqual(expected(of2025).slice(1));
    expect(after.total).toBe(8);
  });

  it('keeps rows inserted during the scan, newer or backdated, out of that pass; none is skipped or repeated', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    await withFiller(survey);
    const before = await addResponses(t, survey, 9, { at: '2026-03-05T10:00:00.000Z', dims: { cohortYear: '2025' } });
    const pass = await scan(token, survey, 'limit=2&dim.cohortYear=2025', async () => {
      await addResponses(t, survey, 1, { at: '2026-03-09T10:00:00.000Z', dims: { cohortYear: '2025' } });
      await addResponses(t, survey, 1, { at: '2026-03-01T10:00:00.000Z', dims: { cohortYear: '2025' } });
    });
    expect(pass.total).toBe(9);
    expect(pass.items.map((item) => item.id).sort()).toEqual([...before].sort());
  });
});
