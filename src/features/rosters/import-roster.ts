import { noDeps } from '../../lib/service.js';
import type { FieldErrorCode } from '../../lib/field-errors.js';
import { sql } from 'drizzle-orm';
import type { CountryCode } from 'libphonenumber-js';
import type { DbOrTx, Tx } from '../../platform/db/database.js';
import type { EmitDeps } from '../events/index.js';
import { ApiError } from '../../lib/errors.js';
import { resolveEntityRefs, type EntityRef } from '../entities/index.js';
import { applyEnrollments, type EnrollmentChange } from './apply-enrollments.js';
import { applyRosterEntities, rosterEntities, type RosterEntityLists } from './import-roster-entities.js';
import { emitDropped } from './emit-dropped.js';
import { parseRoster, type ClassInput, type EnrollmentInput, type ParsedRoster, type RosterPayload, type RowError } from './parse-roster.js';
import { lockRosterWrites } from './roster-lock.js';
import { finishOperation, startOperation } from './roster-operation.js';
import { textSet } from './text-set.js';
import { upsertByKey, type UpsertOutcome } from './upsert-by-key.js';

export const MAX_ROSTER_ROWS = 10_000;
export const DEFAULT_MAX_DROP_RATIO = 0.2;

export type ImportMode = 'upsert' | 'sync';

export interface ImportRosterInput extends RosterPayload, RosterEntityLists {
  mode: ImportMode;
  dryRun?: boolean;
  maxDropRatio?: number;
}

export interface RosterCounts {
  people: number;
  classes: number;
  classGroups: number;
  enrollments: number;
}

/** The answer of POST /enrollments/import (contract decisions, Rosters). */
export interface ImportResult {
  dryRun: boolean;
  created: RosterCounts;
  updated: RosterCounts;
  unchanged: RosterCounts;
  /** Enrollments a sync dropped because the payload left them out. */
  dropped: number;
  errors: RowError[];
  /** Units, courses and teachers the payload carried *(extension)*; absent when it carried none. */
  entities?: { created: number; updated: number; unchanged: number };
}

/** What changed, key by key: the CLI prints it as the diff of a dry run. */
export interface RosterChanges {
  people: UpsertOutcome[];
  classGroups: UpsertOutcome[];
  classes: UpsertOutcome[];
  enrollments: EnrollmentChange[];
}

/** One class's share of an import's enrollment rows: the dry-run diff the panel shows per class. */
export interface ClassDiff {
  classCode: string;
  created: number;
  updated: number;
  unchanged: number;
  dropped: number;
}

export interface ImportOutcome {
  result: ImportResult;
  changes: RosterChanges;
  /** Per class named by a valid row or dropped from, by class code. */
  byClass: ClassDiff[];
  /** enrollment.dropped events emitted (none on a dry run). */
  events: number;
}

export type ImportDeps = EmitDeps;

/** What the company already has among the codes the payload names. */
interface Stored {
  people: Set<string>;
  classGroups: Set<string>;
  classes: Set<string>;
}

async function readStored(tx: Tx, companyId: string, parsed: ParsedRoster): Promise<Stored> {
  const externalIds = textSet(parsed.enrollments.map((e) => e.externalId));
  const classCodes = textSet([...parsed.enrollments.map((e) => e.classCode), ...parsed.classes.map((c) => c.code)]);
  const groupCodes = textSet(parsed.classes.flatMap((c) => (c.classGroupCode ? [c.classGroupCode] : [])));
  const { rows } = await tx.execute<{ kind: keyof Stored; key: string }>(sql`
    SELECT 'people' AS kind, external_id AS key FROM people WHERE company_id = ${companyId} AND external_id IN ${externalIds}
    UNION ALL SELECT 'classes', code FROM classes WHERE company_id = ${companyId} AND code IN ${classCodes}
    UNION ALL SELECT 'classGroups', code FROM class_groups WHERE company_id = ${companyId} AND code IN ${groupCodes}`);
  const stored: Stored = { people: new Set(), classGroups: new Set(), classes: new Set() };
  for (const row of rows) stored[row.kind].add(row.key);
  return stored;
}

function rowError(list: string, index: number, field: string, code: FieldErrorCode, message: string): RowError {
  return { index, path: `${list}[${index}].${field}`, code, message };
}

/** A class row with its codes resolved to entity ids, or the first reference it cannot resolve. */
async function resolveClasses(tx: Tx, companyId: string, parsed: ParsedRoster, stored: Stored) {
  const refs: EntityRef[] = parsed.classes.flatMap((c) => [
    ...(c.courseCode ? [{ kind: 'course' as const, value: c.courseCode }] : []),
    ...(c.orgUnitCode ? [{ kind: 'unit' as const, value: c.orgUnitCode }] : []),
    ...(c.teacherCodes ?? []).map((value) => ({ kind: 'teacher' as const, value })),
  ]);
  const entities = await resolveEntityRefs(tx, noDeps, { companyId, refs });
  const groups = new Set([...stored.classGroups, ...parsed.classGroups.map((g) => g.code)]);
  const valid: Array<ClassInput & { courseItemId?: string; orgUnitId?: string; teacherIds?: string[] }> = [];
  const errors: RowError[] = [];
  for (const cls of parsed.classes) {
    const fail = (field: string, code: FieldErrorCode, message: string) => errors.push(rowError('classes', cls.index, field, code, message));
    const isNew = !stored.classes.has(cls.code);
    const course = cls.courseCode ? entities.get('course', cls.courseCode) : null;
    const unit = cls.orgUnitCode ? entities.get('unit', cls.orgUnitCode) : null;
    const teachers = (cls.teacherCodes ?? []).map((code) => entities.get('teacher', code));
    if (cls.classGroupCode && !groups.has(cls.classGroupCode)) fail('classGroupCode', 'unknown_reference', `No class group ${cls.classGroupCode}.`);
    else if (isNew && !cls.courseCode) fail('courseCode', 'required', 'courseCode is required for a new class.');
    else if (isNew && !cls.orgUnitCode) fail('orgUnitCode', 'required', 'orgUnitCode is required for a new class.');
    else if (cls.courseCode && !course) fail('courseCode', 'unknown_entity', `No course ${cls.courseCode} is registered.`);
    else if (cls.orgUnitCode && !unit) fail('orgUnitCode', 'unknown_entity', `No unit ${cls.orgUnitCode} is registered.`);
    else if (teachers.some((t) => !t)) fail('teacherCodes', 'unknown_entity', 'A teacher code is not registered.');
    else {
      valid.push({
        ...cls,
        ...(course ? { courseItemId: course.id } : {}),
        ...(unit ? { orgUnitId: unit.id } : {}),
        ...(cls.teacherCodes ? { teacherIds: teachers.map((t) => t!.id) } : {}),
      });
    }
  }
  return { valid, errors };
}

function checkEnrollments(parsed: ParsedRoster, stored: Stored, classCodes: Set<string>) {
  const people = new Set([...stored.people, ...parsed.people.map((p) => p.externalId)]);
  const classes = new Set([...stored.classes, ...classCodes]);
  const valid: EnrollmentInput[] = [];
  const errors: RowError[] = [];
  for (const row of parsed.enrollments) {
    if (!people.has(row.externalId)) errors.push(rowError('enrollments', row.index, 'externalId', 'unknown_reference', `No person ${row.externalId}.`));
    else if (!classes.has(row.classCode)) errors.push(rowError('enrollments', row.index, 'classCode', 'unknown_reference', `No class ${row.classCode}.`));
    else valid.push(row);
  }
  return { valid, errors };
}

/** sync: refuses (409, nothing applied) when leaving rows out would drop too much of a class. */
async function checkDropRatio(tx: Tx, companyId: string, listed: string[], mentioned: Array<[string, string]>, maxDropRatio: number): Promise<void> {
  const { rows } = await tx.execute<{ classCode: string; active: number; dropping: number }>(sql`
    WITH m AS (SELECT m->>0 AS external_id, m->>1 AS code FROM jsonb_array_elements(${JSON.stringify(mentioned)}::jsonb) AS m)
    SELECT c.code AS "classCode", count(*)::int AS active,
           count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.external_id = p.external_id AND m.code = c.code))::int AS dropping
      FROM classes c
      JOIN enrollments e ON e.company_id = c.company_id AND e.class_id = c.id AND e.status IN ('enrolled', 'completed')
      JOIN people p ON p.company_id = e.company_id AND p.id = e.person_id
     WHERE c.company_id = ${companyId} AND c.code IN ${textSet(listed)}
     GROUP BY c.code ORDER BY c.code`);
  const over = rows
    .map((row) => ({ ...row, ratio: row.dropping / row.active }))
    .filter((row) => row.ratio > maxDropRatio);
  if (over.length > 0) {
    throw new ApiError(
      'DROP_THRESHOLD_EXCEEDED',
      `The sync would drop more than ${maxDropRatio * 100}% of the active enrollments of ${over.length} class(es); nothing was applied.`,
      { maxDropRatio, classes: over },
    );
  }
}

const count = (outcomes: readonly { action: string }[], action: string) => outcomes.filter((o) => o.action === action).length;

function summarize(dryRun: boolean, parsed: ParsedRoster, valid: { classes: number; enrollments: number }, changes: RosterChanges, errors: RowError[]): ImportResult {
  const enrollmentRows = changes.enrollments.filter((c) => c.action !== 'dropped');
  const created = {
    people: count(changes.people, 'created'),
    classes: count(changes.classes, 'created'),
    classGroups: count(changes.classGroups, 'created'),
    enrollments: count(enrollmentRows, 'created'),
  };
  const updated = {
    people: count(changes.people, 'updated'),
    classes: count(changes.classes, 'updated'),
    classGroups: count(changes.classGroups, 'updated'),
    enrollments: count(enrollmentRows, 'updated'),
  };
  const total = { people: parsed.people.length, classes: valid.classes, classGroups: parsed.classGroups.length, enrollments: valid.enrollments };
  const unchanged = Object.fromEntries(
    (Object.keys(total) as Array<keyof RosterCounts>).map((k) => [k, total[k] - created[k] - updated[k]]),
  ) as unknown as RosterCounts;
  const dropped = changes.enrollments.length - enrollmentRows.length;
  return { dryRun, created, updated, unchanged, dropped, errors: errors.sort(byList) };
}

const listOf = (error: RowError) => error.path.slice(0, error.path.indexOf('['));
const byList = (a: RowError, b: RowError) => listOf(a).localeCompare(listOf(b)) || a.index - b.index;

function diffByClass(valid: EnrollmentInput[], changes: EnrollmentChange[]): ClassDiff[] {
  const byCode = new Map<string, ClassDiff>();
  const of = (classCode: string) => byCode.get(classCode) ?? byCode.set(classCode, { classCode, created: 0, updated: 0, unchanged: 0, dropped: 0 }).get(classCode)!;
  for (const row of valid) of(row.classCode).unchanged++;
  for (const change of changes) {
    const diff = of(change.classCode);
    diff[change.action]++;
    if (change.action !== 'dropped') diff.unchanged--;
  }
  return [...byCode.values()].sort((a, b) => a.classCode.localeCompare(b.classCode));
}

class DryRun extends Error {
  constructor(readonly outcome: ImportOutcome) {
    super('dry run');
  }
}

async function companyCountry(db: DbOrTx, companyId: string): Promise<CountryCode> {
  const { rows } = await db.execute<{ country: string | null }>(sql`SELECT settings->>'defaultCountry' AS country FROM companies WHERE id = ${companyId}`);
  return (rows[0]?.country ?? 'BR') as CountryCode;
}

/**
 * A roster import: valid rows applied in one transaction, compared with the stored state (not
 * with an earlier file), so a change made elsewhere is never masked and re-sending the same
 * situation changes and emits nothing. A handful of statements whatever the size. A dry run does
 * all of it and rolls back, so it reports exactly what the import would do.
 */
export async function importRoster(db: DbOrTx, deps: ImportDeps, input: { companyId: string } & ImportRosterInput): Promise<ImportOutcome> {
  const { companyId } = input;
  const parsed = parseRoster(input, { defaultCountry: await companyCountry(db, companyId) });
  const entities = rosterEntities(input);
  const dryRun = input.dryRun ?? false;
  try {
    return await db.transaction(async (tx) => {
      const stamp = await lockRosterWrites(tx, deps.clock, companyId);
      // The statements join the payload with the company's rows. A new company on tables other
      // companies fill has no statistics of its own (estimated at 1 row), and nested loops then
      // rescan its rows once per payload row (148 s for 10,000): hash joins read each table once.
      await tx.execute(sql`SET LOCAL enable_nestloop = off`);
      const entityResult = await applyRosterEntities(tx, deps, { companyId, entities });
      const stored = await readStored(tx, companyId, parsed);
      const classes = await resolveClasses(tx, companyId, parsed, stored);
      const enrollments = checkEnrollments(parsed, stored, new Set(classes.valid.map((c) => c.code)));
      const listed = [...new Set([...classes.valid.map((c) => c.code), ...enrollments.valid.map((e) => e.classCode)])];
      if (input.mode === 'sync') await checkDropRatio(tx, companyId, listed, parsed.mentioned, input.maxDropRatio ?? DEFAULT_MAX_DROP_RATIO);

      const operationId = await startOperation(tx, deps, companyId, 'import', input.mode, stamp);
      const changes = await applyRows(tx, deps, companyId, stamp, { parsed, classes: classes.valid });
      changes.enrollments = await applyEnrollments(tx, deps, companyId, {
        stamp,
        operationId,
        rows: enrollments.valid,
        syncClasses: input.mode === 'sync' ? listed : null,
        mentioned: parsed.mentioned,
      });
      const result = summarize(dryRun, parsed, { classes: classes.valid.length, enrollments: enrollments.valid.length }, changes, [
        ...parsed.errors,
        ...classes.errors,
        ...enrollments.errors,
      ]);
      if (entityResult) result.entities = { created: entityResult.created, updated: entityResult.updated, unchanged: entityResult.unchanged };
      const events = await emitDropped(tx, deps, companyId, changes.enrollments);
      const outcome = { result, changes, byClass: diffByClass(enrollments.valid, changes.enrollments), events };
      if (dryRun) throw new DryRun({ ...outcome, events: 0 });
      const { errors: _errors, ...summary } = result;
      await finishOperation(tx, companyId, operationId, { ...summary, errors: result.errors.length });
      return outcome;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.outcome;
    throw err;
  }
}

/** Class groups, classes and people, in that order (classes name their group). */
async function applyRows(tx: Tx, deps: ImportDeps, companyId: string, now: Date, input: { parsed: ParsedRoster; classes: Array<ClassInput & object> }): Promise<RosterChanges> {
  const withId = <T extends object>(rows: T[]) => rows.map(({ index: _index, ...row }: T & { index?: number }) => ({ ...row, id: deps.newId() }));
  const classGroups = await upsertByKey(
    tx,
    {
      table: 'class_groups',
      keyColumn: 'code',
      keyField: 'code',
      columns: [
        { column: 'name', field: 'name', value: sql`r->>'name'` },
        { column: 'starts_on', field: 'startsOn', value: sql`(r->>'startsOn')::date`, keepWhenOmitted: true },
        { column: 'ends_on', field: 'endsOn', value: sql`(r->>'endsOn')::date`, keepWhenOmitted: true },
      ],
    },
    companyId,
    now,
    withId(input.parsed.classGroups),
  );
  const classes = await upsertByKey(
    tx,
    {
      table: 'classes',
      keyColumn: 'code',
      keyField: 'code',
      columns: [
        { column: 'name', field: 'name', value: sql`r->>'name'` },
        {
          column: 'class_group_id',
          field: 'classGroupCode',
          value: sql`(SELECT g.id FROM class_groups g WHERE g.company_id = ${companyId} AND g.code = r->>'classGroupCode')`,
          keepWhenOmitted: true,
        },
        { column: 'course_item_id', field: 'courseItemId', value: sql`(r->>'courseItemId')::uuid`, keepWhenOmitted: true },
        { column: 'org_unit_id', field: 'orgUnitId', value: sql`(r->>'orgUnitId')::uuid`, keepWhenOmitted: true },
        {
          column: 'teacher_ids',
          field: 'teacherIds',
          value: sql`coalesce(ARRAY(SELECT jsonb_array_elements_text(r->'teacherIds'))::uuid[], '{}')`,
          keepWhenOmitted: true,
        },
      ],
    },
    companyId,
    now,
    withId(input.classes),
  );
  const people = await upsertByKey(
    tx,
    {
      table: 'people',
      keyColumn: 'external_id',
      keyField: 'externalId',
      columns: [
        { column: 'name', field: 'name', value: sql`r->>'name'` },
        { column: 'email', field: 'email', value: sql`r->>'email'`, keepWhenOmitted: true },
        { column: 'phone', field: 'phone', value: sql`r->>'phone'`, keepWhenOmitted: true },
      ],
    },
    companyId,
    now,
    withId(input.parsed.people),
  );
  return { classGroups, classes, people, enrollments: [] };
}
