import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { importEntities } from './import-entities.js';
import { resolveEntityRef, resolveEntityRefs } from './resolve-entity.js';
import type { EntityInput } from './parse-entities.js';

let t: TestApp;
let company: string;
let other: string;
beforeAll(async () => {
  t = await startTestApp();
  company = (await t.company()).id;
  other = (await t.company()).id;
  const entities: EntityInput[] = [
    { kind: 'unit', code: 'NORTH', name: 'North campus' },
    { kind: 'unit', code: 'N-MATH', name: 'Mathematics', parentCode: 'NORTH' },
    { kind: 'course', code: 'MATH101', name: 'Algebra' },
    { kind: 'teacher', code: 'MATH101', name: 'A teacher whose code is a course code' },
  ];
  await importEntities(t.ctx.db, t.ctx, { companyId: company, incoming: entities });
  await importEntities(t.ctx.db, t.ctx, { companyId: other, incoming: [{ kind: 'course', code: 'ONLY-THERE', name: 'Elsewhere' }] });
});
afterAll(async () => t?.close());

const byCode = (kind: 'course' | 'teacher' | 'unit', code: string) => resolveEntityRef(t.ctx.db, company, kind, code);

describe('resolveEntityRef', () => {
  it('finds an entity by the caller’s code, with its tree position', async () => {
    const north = await byCode('unit', 'NORTH');
    const math = await byCode('unit', 'N-MATH');
    expect(math).toEqual({ id: expect.any(String), kind: 'unit', code: 'N-MATH', name: 'Mathematics', parentId: north!.id, orgPath: `/${north!.id}/${math!.id}/` });
  });

  it('finds an entity by its id, in any letter case', async () => {
    const course = (await byCode('course', 'MATH101'))!;
    expect(await resolveEntityRef(t.ctx.db, company, 'course', course.id)).toEqual(course);
    expect(await resolveEntityRef(t.ctx.db, company, 'course', course.id.toUpperCase())).toEqual(course);
  });

  it('keeps kinds apart: the same code or id of another kind is not found', async () => {
    const course = (await byCode('course', 'MATH101'))!;
    const teacher = (await byCode('teacher', 'MATH101'))!;
    expect(teacher.id).not.toBe(course.id);
    expect(await resolveEntityRef(t.ctx.db, company, 'teacher', course.id)).toBeNull();
    expect(await byCode('unit', 'MATH101')).toBeNull();
  });

  it("never resolves another company's entity, by code or by id", async () => {
    const theirs = (await resolveEntityRef(t.ctx.db, other, 'course', 'ONLY-THERE'))!;
    expect(await byCode('course', 'ONLY-THERE')).toBeNull();
    expect(await resolveEntityRef(t.ctx.db, company, 'course', theirs.id)).toBeNull();
  });

  it('answers null for unknown codes, unknown ids and codes differing in case', async () => {
    expect(await byCode('course', 'NOPE')).toBeNull();
    expect(await byCode('course', '019a2f4e-7c1d-7b3a-9f00-5d1e2a3b4c5d')).toBeNull();
    expect(await byCode('course', 'math101')).toBeNull();
  });
});

describe('resolveEntityRefs', () => {
  it('resolves many references of several kinds in one call, repeated ones included', async () => {
    const north = (await byCode('unit', 'NORTH'))!;
    const refs = await resolveEntityRefs(t.ctx.db, t.ctx, { companyId: company, refs: [
      { kind: 'unit', value: north.id },
      { kind: 'unit', value: 'NORTH' },
      { kind: 'course', value: 'MATH101' },
      { kind: 'course', value: 'MATH101' },
      { kind: 'teacher', value: 'NOPE' },
    ] });
    expect(refs.get('unit', north.id)).toEqual(north);
    expect(refs.get('unit', 'NORTH')).toEqual(north);
    expect(refs.get('course', 'MATH101')).toMatchObject({ kind: 'course', code: 'MATH101' });
    expect(refs.get('teacher', 'NOPE')).toBeNull();
    expect(refs.get('teacher', 'never asked')).toBeNull();
  });

  it('prefers the entity whose id is the value over one whose code is the value', async () => {
    const course = (await byCode('course', 'MATH101'))!;
    await importEntities(t.ctx.db, t.ctx, { companyId: company, incoming: [{ kind: 'course', code: course.id, name: 'Code spelled like an id' }] });
    expect((await resolveEntityRefs(t.ctx.db, t.ctx, { companyId: company, refs: [{ kind: 'course', value: course.id }] })).get('course', course.id)).toEqual(course);
  });

  it('asks the database nothing for no references', async () => {
    const refs = await resolveEntityRefs(t.ctx.db, t.ctx, { companyId: company, refs: [] });
    expect(refs.get('unit', 'NORTH')).toBeNull();
  });
});
