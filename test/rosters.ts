import type { TestApp } from './harness.js';
import { importEntities } from '../src/features/entities/import-entities.js';

/** Registers the entities a roster names: two courses, two teachers and a unit tree north > north-1, plus south. */
export async function registerSchool(t: TestApp, companyId: string): Promise<void> {
  await importEntities(t.ctx.db, t.ctx, { companyId, incoming: [
    { kind: 'course', code: 'MATH', name: 'Mathematics' },
    { kind: 'course', code: 'HIST', name: 'History' },
    { kind: 'teacher', code: 'T1', name: 'Teacher One' },
    { kind: 'teacher', code: 'T2', name: 'Teacher Two' },
    { kind: 'unit', code: 'north', name: 'North' },
    { kind: 'unit', code: 'north-1', name: 'North annex', parentCode: 'north' },
    { kind: 'unit', code: 'south', name: 'South' },
  ] });
}

export const studentId = (i: number) => `S${String(i).padStart(5, '0')}`;

/**
 * A roster payload: `classes` classes of `perClass` students each (every student in one class),
 * the classes alternating between the units north-1 and south, all in group 2026.
 */
export function rosterPayload(classes: number, perClass: number, extra: Record<string, unknown> = {}) {
  const classRows = Array.from({ length: classes }, (_, c) => ({
    code: `C${c}`,
    name: `Class ${c}`,
    classGroupCode: 'Y2026',
    courseCode: c % 2 === 0 ? 'MATH' : 'HIST',
    orgUnitCode: c % 2 === 0 ? 'north-1' : 'south',
    teacherCodes: ['T1'],
  }));
  const people = Array.from({ length: classes * perClass }, (_, i) => ({ externalId: studentId(i), name: `Student ${i}`, email: `s${i}@school.test` }));
  const enrollments = people.map((p, i) => ({ externalId: p.externalId, classCode: `C${Math.floor(i / perClass)}`, status: 'enrolled' }));
  return {
    mode: 'upsert',
    classGroups: [{ code: 'Y2026', name: 'Year 2026', startsOn: '2026-02-01', endsOn: '2026-12-15' }],
    classes: classRows,
    people,
    enrollments,
    ...extra,
  };
}
