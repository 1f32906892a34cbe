import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRuntime } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { describeError } from '../../cli/output.js';
import type { CliRuntime } from '../../cli/runtime.js';
import { describeRosterImport, rosterImport } from '../../cli/commands/roster.js';
import { MANIFEST, ONEROSTER } from '../../../test/oneroster-package.js';

/**
 * Packages written by hand from the published formats (1EdTech OneRoster 1.2 CSV binding; Canvas
 * SIS import CSVs), small enough to read: which row becomes what is the rosters README's mapping.
 */
const root = mkdtempSync(join(tmpdir(), 'quorum-roster-exports-'));
let t: TestApp;
let rt: CliRuntime;
beforeAll(async () => {
  t = await startTestApp();
  rt = cliRuntime(t);
});
afterAll(async () => t?.close());

let folders = 0;
/** Writes a folder; `crlf` writes its lines with CRLF, and every file of it starts with a BOM when `bom`. */
function pkg(files: Record<string, string[]>, options: { crlf?: boolean; bom?: boolean } = {}): string {
  folders += 1;
  const path = join(root, `p${folders}`);
  mkdirSync(path);
  const eol = options.crlf ? '\r\n' : '\n';
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(path, name), `${options.bom ? '\ufeff' : ''}${lines.join(eol)}${eol}`);
  return path;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => describeError(err).message,
  );

async function statuses(companyId: string): Promise<Record<string, string>> {
  const { rows } = await t.ctx.pool.query<{ key: string; status: string }>(
    `SELECT p.external_id || '@' || c.code AS key, e.status FROM enrollments e JOIN people p ON p.id = e.person_id JOIN classes c ON c.id = e.class_id
      WHERE e.company_id = $1`,
    [companyId],
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.status]));
}

async function classOf(companyId: string, code: string) {
  const { rows } = await t.ctx.pool.query(
    `SELECT c.name, g.code AS "group", course.code AS course, unit.code AS unit,
            ARRAY(SELECT t.code FROM entities t WHERE t.id = ANY(c.teacher_ids) ORDER BY t.code) AS teachers
       FROM classes c LEFT JOIN class_groups g ON g.id = c.class_group_id
       JOIN entities course ON course.id = c.course_item_id JOIN entities unit ON unit.id = c.org_unit_id
      WHERE c.company_id = $1 AND c.code = $2`,
    [companyId, code],
  );
  return rows[0];
}

describe('quorum roster import --format oneroster', () => {
  it('imports a 1.2 bulk package (BOM, CRLF) in one command: units, courses, terms, classes, students, teachers, enrollments', async () => {
    const company = await t.company();
    const opts = { company: company.slug, mode: 'upsert', format: 'oneroster' };
    const dir = pkg(ONEROSTER, { crlf: true, bom: true });
    const first = await rosterImport(rt, { args: [dir], opts });
    const result = 'result' in first ? first.result : first;
    expect(result.errors).toEqual([]);
    expect(result.created).toEqual({ people: 4, classes: 1, classGroups: 2, enrollments: 4 });
    expect(result.entities).toEqual({ created: 4, updated: 0, unchanged: 0 });
    expect(first.unrecognisedFiles).toEqual(['README.txt', 'demographics.csv']);
    expect(first.unrecognisedColumns).toEqual(['users.csv: shoeSize']);
    expect(first.ignoredRows).toEqual([
      'enrollments.csv: 1 row(s) with role parent (only students enroll; teachers are linked to their classes)',
      'users.csv: 1 row(s) with role parent (only students and teachers are imported)',
    ]);
    expect(describeRosterImport(first)).toContain('ignored unrecognised column(s): users.csv: shoeSize');
    expect(await statuses(company.id)).toEqual({
      'stu-1@cls-alg-1a': 'enrolled',
      'stu-2@cls-alg-1a': 'completed',
      'stu-3@cls-alg-1a': 'enrolled',
      'stu-4@cls-alg-1a': 'enrolled',
    });
    expect(await classOf(company.id, 'cls-alg-1a')).toEqual({ name: 'Algebra 1A', group: 'term-2026-1', course: 'crs-alg', unit: 'sch-1', teachers: ['tch-1'] });
    const person = await t.ctx.pool.query('SELECT name, email, phone FROM people WHERE company_id = $1 AND external_id = $2', [company.id, 'stu-2']);
    expect(person.rows[0]).toEqual({ name: 'Beto Costa', email: null, phone: '+5511987654321' });

    // The same package again changes nothing.
    const again = await rosterImport(rt, { args: [dir], opts });
    const second = 'result' in again ? again.result : again;
    expect(second.created).toEqual({ people: 0, classes: 0, classGroups: 0, enrollments: 0 });
    expect(second.updated).toEqual({ people: 0, classes: 0, classGroups: 0, enrollments: 0 });
    expect(second.entities).toEqual({ created: 0, updated: 0, unchanged: 4 });
  });

  it('syncs a bulk package behind maxDropRatio; tobedeleted drops; a delta package imports and refuses sync', async () => {
    const company = await t.company();
    const opts = { company: company.slug, mode: 'upsert', format: 'oneroster' };
    await rosterImport(rt, { args: [pkg(ONEROSTER)], opts });

    // Next export: stu-4 left the class (row gone), stu-3's enrollment is tobedeleted.
    const next = {
      ...ONEROSTER,
      'enrollments.csv': [
        ONEROSTER['enrollments.csv'][0],
        ...ONEROSTER['enrollments.csv'].slice(1, 3),
        'e3,tobedeleted,2026-03-01T10:00:00.000Z,cls-alg-1a,sch-1,stu-3,student,false,2026-02-01,',
        ...ONEROSTER['enrollments.csv'].slice(5),
      ],
    };
    const dir = pkg(next);
    const refused = await failure(rosterImport(rt, { args: [dir], opts: { ...opts, mode: 'sync' } }));
    expect(refused).toContain('cls-alg-1a: would drop');
    expect((await statuses(company.id))['stu-4@cls-alg-1a']).toBe('enrolled');

    const synced = await rosterImport(rt, { args: [dir], opts: { ...opts, mode: 'sync', maxDropRatio: '0.5' } });
    const result = 'result' in synced ? synced.result : synced;
    expect(result.dropped).toBe(1);
    expect(await statuses(company.id)).toMatchObject({ 'stu-3@cls-alg-1a': 'dropped', 'stu-4@cls-alg-1a': 'dropped', 'stu-1@cls-alg-1a': 'enrolled' });
    const events = await t.ctx.pool.query(`SELECT data->>'externalId' AS who FROM events WHERE company_id = $1 AND type = 'enrollment.dropped' ORDER BY 1`, [company.id]);
    expect(events.rows.map((r) => r.who)).toEqual(['stu-3', 'stu-4']);

    // A delta (1.1 layout: the role in users.csv, no roles.csv, LF) brings stu-4 back.
    const delta = pkg({
      'manifest.csv': MANIFEST('delta', '1.1').filter((line) => !line.startsWith('file.roles')),
      'users.csv': ['sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password', 'stu-4,active,2026-03-02T08:00:00.000Z,true,sch-1,student,dora,,Dora,Sá,,,dora@north.test,,,,09,'],
      'enrollments.csv': ['sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate', 'e4,active,2026-03-02T08:00:00.000Z,cls-alg-1a,sch-1,stu-4,student,false,2026-02-01,'],
    });
    expect(await failure(rosterImport(rt, { args: [delta], opts: { ...opts, mode: 'sync' } }))).toContain('delta');
    await rosterImport(rt, { args: [delta], opts });
    expect(await statuses(company.id)).toMatchObject({ 'stu-4@cls-alg-1a': 'enrolled', 'stu-3@cls-alg-1a': 'dropped', 'stu-1@cls-alg-1a': 'enrolled' });
  });

  it('refuses a folder that is no OneRoster package, naming why', async () => {
    const company = await t.company();
    const opts = { company: company.slug, mode: 'upsert', format: 'oneroster' };
    expect(await failure(rosterImport(rt, { args: [pkg({ 'users.csv': ['sourcedId'] })], opts }))).toContain('no manifest.csv');
    expect(await failure(rosterImport(rt, { args: [pkg({ 'manifest.csv': ['propertyName,value', 'oneroster.version,2.0'] })], opts }))).toContain('oneroster.version 2.0');
  });
});

const CANVAS = {
  'accounts.csv': ['account_id,parent_account_id,name,status', 'acc-north,,North District,active', 'acc-nh,acc-north,North High,active'],
  'terms.csv': ['term_id,name,status,start_date,end_date', 'T2026-1,First term 2026,active,2026-02-01T00:00:00Z,2026-06-30T23:59:59Z'],
  'courses.csv': ['course_id,short_name,long_name,account_id,term_id,status', 'ALG,Algebra,Algebra (2026),acc-nh,T2026-1,active'],
  'sections.csv': ['section_id,course_id,name,status', 'ALG-1A,ALG,Algebra 1A,active'],
  'users.csv': [
    'user_id,login_id,first_name,last_name,full_name,email,status,favourite_colour',
    'u-ana,ana,Ana,Lima,,ana@north.test,active,blue',
    'u-bruno,bruno,Bruno,Costa,,,active,',
    'u-caio,caio,Caio,Reis,,,active,',
    'u-dora,dora,Dora,Sá,,,active,',
    'u-eva,eva,Eva,Melo,Eva Melo,,active,',
    'u-marta,marta,Marta,Moura,,marta@north.test,active,',
    'u-ta,ta,Tiago,Alves,,,active,',
  ],
  'enrollments.csv': [
    'course_id,user_id,role,section_id,status',
    ',u-ana,student,ALG-1A,active',
    ',u-bruno,student,ALG-1A,completed',
    ',u-caio,student,ALG-1A,deleted',
    ',u-dora,student,ALG-1A,inactive',
    // No section: Canvas's default section of the course, a class coded as the course.
    'ALG,u-eva,student,,active',
    ',u-marta,teacher,ALG-1A,active',
    ',u-ta,ta,ALG-1A,active',
  ],
  'xlists.csv': ['xlist_course_id,section_id,status'],
};

describe('quorum roster import --format canvas', () => {
  it("imports Canvas's SIS CSVs in one command with Canvas's statuses, idempotently", async () => {
    const company = await t.company();
    const opts = { company: company.slug, mode: 'upsert', format: 'canvas' };
    const dir = pkg(CANVAS, { crlf: true, bom: true });
    const first = await rosterImport(rt, { args: [dir], opts });
    const result = 'result' in first ? first.result : first;
    expect(result.errors).toEqual([]);
    expect(result.created).toEqual({ people: 6, classes: 2, classGroups: 1, enrollments: 5 });
    expect(first.unrecognisedFiles).toEqual(['xlists.csv']);
    expect(first.unrecognisedColumns).toEqual(['users.csv: favourite_colour']);
    expect(first.ignoredRows).toEqual(['enrollments.csv: 1 row(s) with role ta (only students enroll; teachers are linked to their sections)']);
    expect(await statuses(company.id)).toEqual({
      'u-ana@ALG-1A': 'enrolled',
      'u-bruno@ALG-1A': 'completed',
      'u-caio@ALG-1A': 'dropped',
      'u-dora@ALG-1A': 'dropped',
      'u-eva@ALG': 'enrolled',
    });
    expect(await classOf(company.id, 'ALG-1A')).toEqual({ name: 'Algebra 1A', group: 'T2026-1', course: 'ALG', unit: 'acc-nh', teachers: ['u-marta'] });
    expect(await classOf(company.id, 'ALG')).toMatchObject({ name: 'Algebra (2026)', course: 'ALG', unit: 'acc-nh' });
    const groups = await t.ctx.pool.query(`SELECT starts_on::text, ends_on::text FROM class_groups WHERE company_id = $1`, [company.id]);
    expect(groups.rows).toEqual([{ starts_on: '2026-02-01', ends_on: '2026-06-30' }]);

    const again = await rosterImport(rt, { args: [dir], opts });
    const second = 'result' in again ? again.result : again;
    expect(second.created).toEqual({ people: 0, classes: 0, classGroups: 0, enrollments: 0 });
    expect(second.updated).toEqual({ people: 0, classes: 0, classGroups: 0, enrollments: 0 });
    expect(await t.ctx.pool.query(`SELECT 1 FROM events WHERE company_id = $1 AND type = 'enrollment.dropped'`, [company.id])).toMatchObject({ rowCount: 0 });

    // Next term's file drops Ana in Canvas: one enrollment.dropped.
    const next = pkg({ ...CANVAS, 'enrollments.csv': CANVAS['enrollments.csv'].map((line) => (line.startsWith(',u-ana') ? ',u-ana,student,ALG-1A,deleted' : line)) });
    await rosterImport(rt, { args: [next], opts });
    expect((await statuses(company.id))['u-ana@ALG-1A']).toBe('dropped');
    expect(await t.ctx.pool.query(`SELECT 1 FROM events WHERE company_id = $1 AND type = 'enrollment.dropped'`, [company.id])).toMatchObject({ rowCount: 1 });
  });

  it('refuses a folder with none of the Canvas files, and a file where a folder is needed', async () => {
    const company = await t.company();
    const opts = { company: company.slug, mode: 'upsert', format: 'canvas' };
    expect(await failure(rosterImport(rt, { args: [pkg({ 'people.csv': ['externalId'] })], opts }))).toContain('not a Canvas SIS import');
    const file = join(pkg({ 'x.csv': ['a'] }), 'x.csv');
    expect(await failure(rosterImport(rt, { args: [file], opts }))).toContain('reads a folder');
  });
});

describe('POST /v1/enrollments/import with units, courses and teachers *(extension)*', () => {
  it('registers them in the same payload, so a first import needs no operator step', async () => {
    const { token, company } = await t.tenant();
    const payload = {
      mode: 'upsert',
      orgUnits: [{ code: 'north', name: 'North' }, { code: 'north-1', name: 'North annex', parentCode: 'north' }],
      courses: [{ code: 'MATH', name: 'Mathematics' }],
      teachers: [{ code: 'T1', name: 'Teacher One' }],
      classes: [{ code: 'C0', name: 'Class 0', courseCode: 'MATH', orgUnitCode: 'north-1', teacherCodes: ['T1'] }],
      people: [{ externalId: 'S1', name: 'Student 1' }],
      enrollments: [{ externalId: 'S1', classCode: 'C0', status: 'enrolled' }],
    };
    const res = await t.post(token, '/v1/enrollments/import', payload);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ created: { classes: 1, enrollments: 1 }, entities: { created: 4, updated: 0, unchanged: 0 }, errors: [] });
    expect(await classOf(company.id, 'C0')).toMatchObject({ course: 'MATH', unit: 'north-1', teachers: ['T1'] });
    // Without entity lists the answer has no entities field, as before.
    const plain = await t.post(token, '/v1/enrollments/import', { mode: 'upsert', enrollments: payload.enrollments });
    expect(plain.json().data.entities).toBeUndefined();
  });

  it('refuses the whole import when a unit, course or teacher is invalid, naming it; a dry run registers nothing', async () => {
    const { token, company } = await t.tenant();
    const bad = await t.post(token, '/v1/enrollments/import', {
      mode: 'upsert',
      courses: [{ code: 'bad code!', name: 'X' }],
      orgUnits: [{ code: 'child', name: 'Child', parentCode: 'nowhere' }],
      enrollments: [],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields.map((f: { path: string }) => f.path)).toContain('courses[0].code');
    const dry = await t.post(token, '/v1/enrollments/import', { mode: 'upsert', dryRun: true, courses: [{ code: 'MATH', name: 'M' }], enrollments: [] });
    expect(dry.json().data.entities).toEqual({ created: 1, updated: 0, unchanged: 0 });
    expect(await t.ctx.pool.query('SELECT 1 FROM entities WHERE company_id = $1', [company.id])).toMatchObject({ rowCount: 0 });
  });
});
