import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { importEntities } from '../entities/import-entities.js';
import { resolveEntityRef, type Entity } from '../entities/resolve-entity.js';
import type { ResolvedDim } from '../forms/definition/index.js';
import { canonicalDims } from './canonical-dims.js';

let t: TestApp;
let company: string;
let other: string;
const entity: Record<string, Entity> = {};

const declared: ResolvedDim[] = [
  { key: 'course', kind: 'course', source: 'invite' },
  { key: 'teacher', kind: 'teacher', source: 'invite' },
  { key: 'campus', kind: 'unit', source: 'invite' },
  { key: 'cohort', kind: 'text', source: 'invite' },
  { key: 'year', kind: 'number', source: 'invite' },
  { key: 'termStart', kind: 'date', source: 'invite' },
];

beforeAll(async () => {
  t = await startTestApp();
  company = (await t.company()).id;
  other = (await t.company()).id;
  await importEntities(t.ctx.db, t.ctx, { companyId: company, incoming: [
    { kind: 'unit', code: 'SCHOOL', name: 'School' },
    { kind: 'unit', code: 'NORTH', name: 'North', parentCode: 'SCHOOL' },
    { kind: 'course', code: '101', name: 'Algebra' },
    { kind: 'teacher', code: 'T1', name: 'Ada' },
  ] });
  await importEntities(t.ctx.db, t.ctx, { companyId: other, incoming: [{ kind: 'course', code: 'FOREIGN', name: 'Elsewhere' }] });
  for (const [kind, code] of [['unit', 'SCHOOL'], ['unit', 'NORTH'], ['course', '101'], ['teacher', 'T1']] as const) {
    entity[code] = (await resolveEntityRef(t.ctx.db, company, kind, code))!;
  }
});
afterAll(async () => t?.close());

const canonical = (raw: unknown, dims: readonly ResolvedDim[] = declared) => canonicalDims(t.ctx.db, t.ctx, { companyId: company, declaredDims: dims, rawDims: raw });

describe('canonicalDims', () => {
  it('stores every kind canonically, entities as ids, in declared order, with the org unit', async () => {
    const result = await canonical({
      termStart: '2026-02-01T23:30:00-03:00',
      year: '2026.0',
      cohort: '  Evening  ',
      campus: 'NORTH',
      teacher: entity.T1.id,
      course: '101',
    });
    expect(result).toEqual({
      ok: true,
      dims: { course: entity['101'].id, teacher: entity.T1.id, campus: entity.NORTH.id, cohort: 'Evening', year: '2026', termStart: '2026-02-02' },
      orgUnit: { id: entity.NORTH.id, orgPath: `/${entity.SCHOOL.id}/${entity.NORTH.id}/` },
    });
    expect(Object.keys((result as { dims: object }).dims)).toEqual(['course', 'teacher', 'campus', 'cohort', 'year', 'termStart']);
  });

  it('gives every spelling of a value the same stored form', async () => {
    const spellings = [
      { course: '101', year: 1e3, termStart: '2026-03-01' },
      { course: 101, year: '1000', termStart: '2026-03-01T12:00:00Z' },
      { course: ` ${entity['101'].id.toUpperCase()} `, year: '1.0e3', termStart: '2026-03-01T00:00:00.000+00:00' },
    ];
    const results = await Promise.all(spellings.map((raw) => canonical(raw)));
    for (const result of results) expect(result).toEqual({ ok: true, dims: { course: entity['101'].id, year: '1000', termStart: '2026-03-01' } });
  });

  it('answers empty dims for none given, and no org unit without a unit dim', async () => {
    expect(await canonical(undefined)).toEqual({ ok: true, dims: {} });
    expect(await canonical(null)).toEqual({ ok: true, dims: {} });
    expect(await canonical({}, [])).toEqual({ ok: true, dims: {} });
    expect(await canonical({ cohort: 'A' })).toEqual({ ok: true, dims: { cohort: 'A' } });
  });

  it('reports every problem at dims.<key>, all at once', async () => {
    const result = await canonical({
      course: 'NOPE',
      teacher: { id: 'x' },
      campus: '101',
      cohort: '',
      year: 'twelve',
      termStart: '2026-02-30',
      room: 'B12',
    });
    expect(result.ok).toBe(false);
    expect(result.ok === false && [...result.errors].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'dims.campus', code: 'unknown_entity', message: expect.any(String) },
      { path: 'dims.cohort', code: 'required', message: expect.any(String) },
      { path: 'dims.course', code: 'unknown_entity', message: expect.any(String) },
      { path: 'dims.room', code: 'unknown_field', message: expect.any(String) },
      { path: 'dims.teacher', code: 'invalid_type', message: expect.any(String) },
      { path: 'dims.termStart', code: 'invalid_format', message: expect.any(String) },
      { path: 'dims.year', code: 'invalid_format', message: expect.any(String) },
    ]);
  });

  it("does not resolve another company's entity", async () => {
    const foreign = (await resolveEntityRef(t.ctx.db, other, 'course', 'FOREIGN'))!;
    for (const value of ['FOREIGN', foreign.id]) {
      expect(await canonical({ course: value })).toEqual({ ok: false, errors: [{ path: 'dims.course', code: 'unknown_entity', message: expect.any(String) }] });
    }
  });

  it('treats keys outside the given declaration as unknown (a caller passes the dims it may set)', async () => {
    const inviteDims = declared.filter((dim) => dim.key !== 'campus');
    expect(await canonical({ campus: 'NORTH' }, inviteDims)).toMatchObject({ ok: false, errors: [{ path: 'dims.campus', code: 'unknown_field' }] });
  });

  it('rejects dims that are not an object', async () => {
    for (const raw of ['course=101', ['101'], 7]) {
      expect(await canonical(raw)).toEqual({ ok: false, errors: [{ path: 'dims', code: 'invalid_type', message: expect.any(String) }] });
    }
  });
});
