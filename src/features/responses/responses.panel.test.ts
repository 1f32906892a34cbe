import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { PanelClient, panelSession, type PanelSignIn } from '../../../test/panel.js';
import { createStatsSurvey, record, type StatsSurvey } from '../../../test/statistics.js';
import { createInvite, idsByKey } from '../../../test/respondent-pages.js';
import { shuffledForm } from '../../../test/shuffled-form.js';
import { findForm } from '../forms/find-form.js';
import { importForm } from '../forms/import-form.js';

let t: TestApp;
let panel: PanelClient;
let tenant: Awaited<ReturnType<TestApp['tenant']>>;
let member: PanelSignIn;
let s: StatsSurvey;
let ids: string[];

beforeAll(async () => {
  t = await startTestApp();
  panel = new PanelClient(t);
  tenant = await t.tenant();
  s = await createStatsSurvey(t, tenant.company.id);
  const { q, o } = s;
  ids = await record(t, s, [
    { at: '2026-03-01T10:00:00.000Z', dims: { course: 'math', year: '2025' }, respondent: { name: 'Ana', email: 'ana@school.test', externalId: 'S-1' }, answers: { [q.pick.id]: o.pick.A, [q.many.id]: [o.many.X, o.many.Y], [q.grid.id]: { [o.grid.r1]: o.grid.c2 }, [q.rank.id]: [o.rank.r, o.rank.p, o.rank.q], [q.note.id]: '=SUM(A1), "quoted"\nline', [q.amount.id]: -3, [q.agree.id]: true } },
    { at: '2026-03-02T10:00:00.000Z', dims: { course: 'math', year: '2026' }, answers: { [q.pick.id]: o.pick.B, [q.nps.id]: 9 } },
    { at: '2026-03-03T10:00:00.000Z', dims: { course: 'hist', year: '2026' }, answers: { [q.pick.id]: o.pick.C } },
  ]);
  // After the clock moved to the responses' days: a session opened before would have expired there.
  member = await panelSession(t, { companyId: tenant.company.id, permissions: ['responses'] });
});
afterAll(async () => t?.close());

const base = () => `/panel/api/responses/forms/${s.form.id}`;

describe('panel responses', () => {
  it('lists the forms and describes one: questions, dims, anonymity', async () => {
    const list = await panel.get(member, '/panel/api/responses/forms?limit=100');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((f: { id: string }) => f.id)).toContain(s.form.id);
    const form = await panel.get(member, base());
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json().data).toMatchObject({ id: s.form.id, anonymous: false, dims: [{ key: 'course', kind: 'text' }, { key: 'year', kind: 'number' }, { key: 'campus', kind: 'unit' }] });
    expect(form.json().data.sections[0].questions.find((q: { id: string }) => q.id === s.q.pick.id).options.map((o: { name: string }) => o.name)).toEqual(['Option A', 'Option B', 'Option C']);
  });

  it('scans with the same rows, order, total and filters as /v1, page after page', async () => {
    for (const query of ['', 'dim.course=math', 'from=2026-03-02', 'dim.course=math&dim.year=2026']) {
      const v1 = await t.get(tenant.token, `/v1/forms/${s.form.id}/responses?limit=100&include=answers${query ? `&${query}` : ''}`);
      const pages: unknown[] = [];
      let res = await panel.get(member, `${base()}/scan?limit=1${query ? `&${query}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().meta.total).toBe(v1.json().meta.total);
      for (;;) {
        pages.push(...res.json().data);
        const next = res.json().meta.nextCursor;
        if (!next) break;
        res = await panel.get(member, `${base()}/scan?limit=1&cursor=${encodeURIComponent(next)}${query ? `&${query}` : ''}`);
        expect(res.statusCode, res.body).toBe(200);
      }
      expect(pages, query).toEqual(v1.json().data);
    }
  });

  it('refuses bad filters with field errors, and another filter set on a cursor', async () => {
    const bad = await panel.get(member, `${base()}/scan?from=2026-03-05&to=2026-03-01`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields[0].path).toBe('from');
    const first = await panel.get(member, `${base()}/scan?limit=1`);
    const other = await panel.get(member, `${base()}/scan?limit=1&dim.course=math&cursor=${encodeURIComponent(first.json().meta.nextCursor)}`);
    expect(other.statusCode).toBe(400);
    expect(other.json().error.code).toBe('INVALID_CURSOR');
  });

  it('shows one response with its invite (none: public link) and cases; 404 for another company', async () => {
    const res = await panel.get(member, `/panel/api/responses/${ids[0]}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ response: { id: ids[0], respondent: { name: 'Ana' } }, invite: null, cases: [] });
    const outsider = await panelSession(t, { permissions: ['responses'] });
    expect((await panel.get(outsider, `/panel/api/responses/${ids[0]}`)).statusCode).toBe(404);
    expect((await panel.get(outsider, base())).statusCode).toBe(404);
    expect((await panel.get(outsider, `${base()}/scan`)).statusCode).toBe(404);
    expect((await panel.get(outsider, `${base()}/export?format=csv`)).statusCode).toBe(404);
  });

  it('refuses a member without the responses permission', async () => {
    const other = await panelSession(t, { companyId: tenant.company.id, permissions: ['integrations'] });
    for (const url of ['/panel/api/responses/forms', base(), `${base()}/scan`, `/panel/api/responses/${ids[0]}`, `${base()}/export?format=csv`]) {
      expect((await panel.get(other, url)).statusCode, url).toBe(403);
    }
  });
});

describe('panel exports', () => {
  const csvRows = (body: string) => parse(body.replace(/^\uFEFF/, ''), { relaxColumnCount: false }) as string[][];

  it('writes the filtered scan as CSV, a row per response in scan order, choices by label, formulas defused', async () => {
    const res = await panel.get(member, `${base()}/export?format=csv&dim.course=math`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['x-export-total']).toBe('2');
    const [header, ...rows] = csvRows(res.body);
    expect(header.slice(0, 10)).toEqual(['id', 'createdAt', 'completedAt', 'respondent.name', 'respondent.email', 'respondent.phone', 'respondent.externalId', 'dim.course', 'dim.year', 'dim.campus']);
    expect(rows.map((r) => r[0])).toEqual([ids[1], ids[0]]);
    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    const ana = rows[1];
    expect(cell(ana, 'respondent.name')).toBe('Ana');
    expect(cell(ana, 'dim.course')).toBe('math');
    expect(cell(ana, 'Pick one')).toBe('Option A');
    expect(cell(ana, 'Pick any')).toBe('Option X; Option Y');
    expect(cell(ana, 'Grid')).toBe('Option r1: Option c2');
    expect(cell(ana, 'Rank')).toBe('Option r > Option p > Option q');
    expect(cell(ana, 'Note')).toBe(`'=SUM(A1), "quoted"\nline`);
    expect(cell(ana, 'How much?')).toBe('-3');
    expect(cell(ana, 'Agree?')).toBe('true');
    expect(cell(rows[0], 'Recommend?')).toBe('9');
  });

  it('writes keys instead of labels when asked', async () => {
    const res = await panel.get(member, `${base()}/export?format=csv&keys=true&to=2026-03-01`);
    const [header, row] = csvRows(res.body);
    expect(row[header.indexOf('pick')]).toBe('A');
    expect(row[header.indexOf('many')]).toBe('X; Y');
  });

  it('writes the same rows as XLSX', async () => {
    const csv = csvRows((await panel.get(member, `${base()}/export?format=csv`)).body);
    const res = await panel.get(member, `${base()}/export?format=xlsx`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-export-total']).toBe('3');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Responses')!;
    const rows: string[][] = [];
    sheet.eachRow((row) => rows.push(csv[0].map((_, i) => {
      const value = row.getCell(i + 1).value;
      return value === null || value === undefined ? '' : String(value);
    })));
    // CSV defuses formulas with an apostrophe; XLSX cells are values, never formulas.
    expect(rows).toEqual(csv.map((r) => r.map((c) => c.replace(/^'=/, '='))));
  });

  it('shows the order each respondent saw: position and optionsShown columns of a shuffling form, by label or key, empty without an order', async () => {
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, rawJson: shuffledForm('shuffled-export') });
    const form = (await findForm(t.ctx.db, t.ctx, { companyId: tenant.company.id, id }))!;
    const { q, option } = idsByKey(form);
    const invites = await Promise.all(['Ana', 'Bia'].map((name) => createInvite(t, tenant.token, id, { name, email: `${name.toLowerCase()}@school.test` })));
    for (const invite of invites) {
      const submit = await t.app.inject({ method: 'POST', url: `/r/v1/invites/${invite.token}/submit`, payload: { answers: { [q('pick')]: option('pick', 'b') } } });
      expect(submit.statusCode, submit.body).toBe(201);
    }
    // a submit through the API without a page token stores no order
    const bare = await t.app.inject({ method: 'POST', url: `/r/v1/forms/${tenant.company.slug}/shuffled-export/responses`, payload: { answers: { [q('pick')]: option('pick', 'a') } } });
    expect(bare.statusCode, bare.body).toBe(201);

    const [header, ...rows] = csvRows((await panel.get(member, `/panel/api/responses/forms/${id}/export?format=csv`)).body);
    const section = form.content.sections[0];
    const orderHeader = [
      ...section.questions.map((question) => `position.${question.name}`),
      ...['Pick one', 'Pick some', 'Rank them'].map((name) => `optionsShown.${name}`),
    ];
    // the plain section shuffles nothing, so its question has no order column
    expect(header.slice(-orderHeader.length - 1)).toEqual(['Anything else', ...orderHeader]);
    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    for (const row of rows) {
      if (row[0] === bare.json().data.responseId) {
        for (const name of orderHeader) expect(cell(row, name)).toBe('');
        continue;
      }
      const stored = (await t.get(tenant.token, `/v1/responses/${row[0]}`)).json().data.presentedOrder[section.id];
      expect(section.questions.map((question) => cell(row, `position.${question.name}`))).toEqual(section.questions.map((question) => String(stored.questions.indexOf(question.id) + 1)));
      const pick = section.questions.find((question) => question.key === 'pick')!;
      expect(cell(row, 'optionsShown.Pick one')).toBe(stored.options[pick.id].map((oid: string) => pick.options!.find((o) => o.id === oid)!.name).join('; '));
      expect(cell(row, 'optionsShown.Pick one').endsWith('; Other')).toBe(true);
    }
    expect(rows).toHaveLength(3);

    const [keyHeader, ...keyRows] = csvRows((await panel.get(member, `/panel/api/responses/forms/${id}/export?format=csv&keys=true`)).body);
    expect(keyHeader.slice(-3)).toEqual(['optionsShown.pick', 'optionsShown.many', 'optionsShown.rank']);
    const withOrder = keyRows.find((row) => row[keyHeader.indexOf('position.pick')] !== '')!;
    expect(withOrder[keyHeader.indexOf('optionsShown.many')].split('; ').sort()).toEqual(['f', 'g', 'h', 'i', 'none']);
    expect(withOrder[keyHeader.indexOf('optionsShown.many')].endsWith('; none')).toBe(true);

    // a form that shuffles nothing keeps its columns: the last one is its last question
    const [plainHeader] = csvRows((await panel.get(member, `${base()}/export?format=csv`)).body);
    expect(plainHeader.some((name) => name.startsWith('position.') || name.startsWith('optionsShown.'))).toBe(false);
  });

  it('refuses an unknown format', async () => {
    expect((await panel.get(member, `${base()}/export?format=pdf`)).statusCode).toBe(400);
  });
});
