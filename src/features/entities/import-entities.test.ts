import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { ApiError, type FieldError } from '../../lib/errors.js';
import { importEntityFile, type EntityFileFormat } from './import-entities.js';
import { listEntities } from './list-entities.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const importText = (companyId: string, text: string, format: EntityFileFormat = 'json') => importEntityFile(t.ctx.db, t.ctx, { companyId, text, format });
const importJson = (companyId: string, list: object[]) => importText(companyId, JSON.stringify({ entities: list }));

async function importErrors(companyId: string, text: string, format: EntityFileFormat = 'json'): Promise<FieldError[]> {
  const error = await importText(companyId, text, format).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe('VALIDATION_ERROR');
  return (error as ApiError).details!.fields as FieldError[];
}

interface StoredRow {
  id: string;
  kind: string;
  code: string;
  name: string;
  parent_id: string | null;
  org_path: string | null;
  updated_at: Date;
}

async function stored(companyId: string): Promise<Map<string, StoredRow>> {
  const { rows } = await t.ctx.pool.query<StoredRow>('SELECT * FROM entities WHERE company_id = $1', [companyId]);
  return new Map(rows.map((row) => [`${row.kind}:${row.code}`, row]));
}

const unit = (code: string, parentCode?: string) => ({ kind: 'unit', code, name: `Unit ${code}`, ...(parentCode ? { parentCode } : {}) });

const school = [
  unit('SCHOOL'),
  unit('NORTH', 'SCHOOL'),
  unit('SOUTH', 'SCHOOL'),
  unit('N-MATH', 'NORTH'),
  unit('N-MATH-LAB', 'N-MATH'),
  unit('S-ART', 'SOUTH'),
  { kind: 'course', code: 'MATH101', name: 'Algebra' },
  { kind: 'teacher', code: 'T1', name: 'Ada Lovelace' },
];

const SCHOOL_CSV = [
  'kind,code,name,parentCode',
  'course,MATH101,Algebra,',
  'unit,N-MATH-LAB,Unit N-MATH-LAB,N-MATH',
  'unit,N-MATH,Unit N-MATH,NORTH',
  'unit,NORTH,Unit NORTH,SCHOOL',
  'unit,SCHOOL,Unit SCHOOL,',
  'unit,SOUTH,Unit SOUTH,SCHOOL',
  'unit,S-ART,Unit S-ART,SOUTH',
  'teacher,T1,Ada Lovelace,',
].join('\n');

function expectTree(rows: Map<string, StoredRow>): void {
  const id = (code: string) => rows.get(`unit:${code}`)!.id;
  const path = (...codes: string[]) => `/${codes.map(id).join('/')}/`;
  expect(rows.get('unit:SCHOOL')).toMatchObject({ parent_id: null, org_path: path('SCHOOL') });
  expect(rows.get('unit:NORTH')).toMatchObject({ parent_id: id('SCHOOL'), org_path: path('SCHOOL', 'NORTH') });
  expect(rows.get('unit:N-MATH-LAB')).toMatchObject({ parent_id: id('N-MATH'), org_path: path('SCHOOL', 'NORTH', 'N-MATH', 'N-MATH-LAB') });
  expect(rows.get('unit:S-ART')).toMatchObject({ parent_id: id('SOUTH'), org_path: path('SCHOOL', 'SOUTH', 'S-ART') });
  expect(rows.get('course:MATH101')).toMatchObject({ name: 'Algebra', parent_id: null, org_path: null });
  expect(rows.get('teacher:T1')).toMatchObject({ name: 'Ada Lovelace', parent_id: null, org_path: null });
}

describe('importEntityFile', () => {
  it('creates courses, teachers and the unit tree with materialised org paths (JSON)', async () => {
    const company = await t.company();
    expect(await importJson(company.id, school)).toEqual({ created: 8, updated: 0, unchanged: 0, relocated: 0 });
    expectTree(await stored(company.id));
  });

  it('reads CSV with children before their parents', async () => {
    const company = await t.company();
    expect(await importText(company.id, SCHOOL_CSV, 'csv')).toEqual({ created: 8, updated: 0, unchanged: 0, relocated: 0 });
    expectTree(await stored(company.id));
  });

  it('changes nothing when the same content comes again, in either format', async () => {
    const company = await t.company();
    await importJson(company.id, school);
    const before = await stored(company.id);
    t.clock.advance(60_000);
    expect(await importJson(company.id, school)).toEqual({ created: 0, updated: 0, unchanged: 8, relocated: 0 });
    expect(await importText(company.id, SCHOOL_CSV, 'csv')).toEqual({ created: 0, updated: 0, unchanged: 8, relocated: 0 });
    expect(await stored(company.id)).toEqual(before);
  });

  it('updates names by kind and code, keeping ids', async () => {
    const company = await t.company();
    await importJson(company.id, school);
    const before = await stored(company.id);
    t.clock.advance(60_000);
    const result = await importJson(company.id, [{ kind: 'course', code: 'MATH101', name: 'Linear algebra' }, { kind: 'teacher', code: 'MATH101', name: 'Same code, other kind' }]);
    expect(result).toEqual({ created: 1, updated: 1, unchanged: 0, relocated: 0 });
    const after = await stored(company.id);
    expect(after.get('course:MATH101')).toMatchObject({ id: before.get('course:MATH101')!.id, name: 'Linear algebra', updated_at: t.clock.now() });
    expect(after.get('unit:NORTH')).toEqual(before.get('unit:NORTH'));
  });

  it('moves a unit with its whole subtree, including descendants the file leaves out', async () => {
    const company = await t.company();
    await importJson(company.id, school);
    const result = await importJson(company.id, [unit('N-MATH', 'SOUTH')]);
    expect(result).toEqual({ created: 0, updated: 1, unchanged: 0, relocated: 1 });
    const rows = await stored(company.id);
    const id = (code: string) => rows.get(`unit:${code}`)!.id;
    expect(rows.get('unit:N-MATH')).toMatchObject({ parent_id: id('SOUTH'), org_path: `/${id('SCHOOL')}/${id('SOUTH')}/${id('N-MATH')}/` });
    expect(rows.get('unit:N-MATH-LAB')!.org_path).toBe(`/${id('SCHOOL')}/${id('SOUTH')}/${id('N-MATH')}/${id('N-MATH-LAB')}/`);
    expect(rows.get('unit:NORTH')!.org_path).toBe(`/${id('SCHOOL')}/${id('NORTH')}/`);
  });

  it('makes a unit listed without parentCode a root', async () => {
    const company = await t.company();
    await importJson(company.id, school);
    await importJson(company.id, [unit('NORTH')]);
    const rows = await stored(company.id);
    expect(rows.get('unit:NORTH')).toMatchObject({ parent_id: null, org_path: `/${rows.get('unit:NORTH')!.id}/` });
    expect(rows.get('unit:N-MATH-LAB')!.org_path!.startsWith(`/${rows.get('unit:NORTH')!.id}/`)).toBe(true);
  });

  it('accepts a parent stored by an earlier import', async () => {
    const company = await t.company();
    await importJson(company.id, school);
    expect(await importJson(company.id, [unit('S-ART-STUDIO', 'S-ART')])).toMatchObject({ created: 1 });
    const rows = await stored(company.id);
    expect(rows.get('unit:S-ART-STUDIO')!.org_path).toBe(`${rows.get('unit:S-ART')!.org_path}${rows.get('unit:S-ART-STUDIO')!.id}/`);
  });

  it('reports an unknown parentCode at its path, in JSON and CSV, and writes nothing', async () => {
    const company = await t.company();
    const json = JSON.stringify({ entities: [unit('A'), { kind: 'course', code: 'C1', name: 'C' }, unit('B', 'NOPE')] });
    expect(await importErrors(company.id, json)).toEqual([{ path: 'entities[2].parentCode', code: 'unknown_entity', message: expect.stringContaining('NOPE') }]);
    const csv = 'kind,code,name,parentCode\nunit,A,A,\ncourse,C1,C,\nunit,B,B,NOPE\n';
    expect(await importErrors(company.id, csv, 'csv')).toEqual([{ path: 'rows[3].parentCode', code: 'unknown_entity', message: expect.any(String) }]);
    expect(await stored(company.id)).toEqual(new Map());
  });

  it("does not take another company's unit as a parent", async () => {
    const [owner, other] = [await t.company(), await t.company()];
    await importJson(owner.id, school);
    expect(await importErrors(other.id, JSON.stringify([unit('X', 'NORTH')]))).toMatchObject([{ path: 'entities[0].parentCode', code: 'unknown_entity' }]);
  });

  it('refuses to move a unit under its own subtree', async () => {
    const company = await t.company();
    await importJson(company.id, school);
    const fields = await importErrors(company.id, JSON.stringify([unit('S-ART'), unit('NORTH', 'N-MATH-LAB')]));
    expect(fields).toEqual([{ path: 'entities[1].parentCode', code: 'invalid_reference', message: expect.stringContaining('NORTH') }]);
  });

  it("passes the parser's errors through with their paths", async () => {
    const company = await t.company();
    expect(await importErrors(company.id, JSON.stringify([{ kind: 'room', code: 'R1', name: 'Room' }]))).toMatchObject([{ path: 'entities[0].kind', code: 'invalid_value' }]);
    expect(await importErrors(company.id, 'kind,code,name\ncourse,,Nameless\n', 'csv')).toMatchObject([{ path: 'rows[1].code', code: 'required' }]);
  });

  it('imports 10,000 rows set-wise, and again without a change', async () => {
    const company = await t.company();
    const units = [unit('ROOT'), ...Array.from({ length: 999 }, (_, i) => unit(`U${i}`, i < 20 ? 'ROOT' : `U${i % 20}`))];
    const courses = Array.from({ length: 4_500 }, (_, i) => ({ kind: 'course', code: `C${i}`, name: `Course ${i}` }));
    const teachers = Array.from({ length: 4_500 }, (_, i) => ({ kind: 'teacher', code: `T${i}`, name: `Teacher ${i}` }));
    const all = [...courses, ...units.reverse(), ...teachers];
    expect(await importJson(company.id, all)).toEqual({ created: 10_000, updated: 0, unchanged: 0, relocated: 0 });
    expect(await importJson(company.id, all)).toEqual({ created: 0, updated: 0, unchanged: 10_000, relocated: 0 });
    const { rows } = await t.ctx.pool.query(
      `SELECT count(*)::int AS n FROM entities c JOIN entities p ON p.id = c.parent_id WHERE c.company_id = $1 AND c.org_path <> p.org_path || c.id || '/'`,
      [company.id],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('listEntities', () => {
  it('lists one kind or all, units in tree order with their parent code', async () => {
    const company = await t.company();
    await importJson(company.id, school);
    const units = await listEntities(t.ctx.db, t.ctx, { companyId: company.id, kind: 'unit' });
    expect(units.map((u) => [u.code, u.parentCode])).toEqual(
      [...units].sort((a, b) => (a.orgPath! < b.orgPath! ? -1 : 1)).map((u) => [u.code, u.parentCode]),
    );
    expect(units.find((u) => u.code === 'N-MATH')).toMatchObject({ kind: 'unit', name: 'Unit N-MATH', parentCode: 'NORTH' });
    expect((await listEntities(t.ctx.db, t.ctx, { companyId: company.id })).map((e) => e.kind)).toEqual(['course', 'teacher', ...units.map(() => 'unit')]);
  });
});
