import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRuntime, runQuorum } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { registerSchool } from '../../../test/rosters.js';
import { describeError } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { describeSetStatus, enrollmentSetStatus } from './enrollment.js';
import { describeRosterImport, ROSTER_EXIT, rosterImport } from './roster.js';

const dir = mkdtempSync(join(tmpdir(), 'quorum-roster-cli-'));

let t: TestApp;
let rt: CliRuntime;
beforeAll(async () => {
  t = await startTestApp();
  rt = cliRuntime(t);
});
afterAll(async () => t?.close());

function folder(name: string, files: Record<string, string>): string {
  const path = join(dir, name);
  mkdirSync(path);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
  return path;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => describeError(err).message,
  );

const FILES = {
  'class_groups.csv': 'code,name,startsOn,endsOn\nY2026,Year 2026,2026-02-01,2026-12-15\n',
  'classes.csv': 'sourcedId,name,classGroupCode,courseCode,orgUnitCode,teacherCodes\nC0,Class 0,Y2026,MATH,north-1,T1;T2\n',
  'people.csv': '\ufeffexternalId,name,email,phone\nA,Ann,ann@school.test,\nB,Bob,,\nC,Cid,,\n',
  'enrollments.csv': 'externalId,classCode,status\nA,C0,enrolled\nB,C0,enrolled\nC,C0,completed\n',
};

describe('quorum roster import and enrollment set-status', () => {
  it('imports a CSV folder, shows a dry-run diff, refuses a large drop and sets one status', async () => {
    const company = await t.company();
    await registerSchool(t, company.id);
    const opts = { company: company.slug, mode: 'upsert' };
    const first = await rosterImport(rt, { args: [folder('full', FILES)], opts });
    expect(describeRosterImport(first)).toContain('created: people 3, classes 1, class groups 1, enrollments 3');

    const partial = folder('partial', { 'enrollments.csv': 'externalId,classCode,status\nA,C0,enrolled\nB,C0,completed\n' });
    const refused = await failure(rosterImport(rt, { args: [partial], opts: { ...opts, mode: 'sync' } }));
    expect(refused).toContain('C0: would drop 1 of 3 (33.3%)');

    const dry = await rosterImport(rt, { args: [partial], opts: { ...opts, mode: 'sync', dryRun: true, maxDropRatio: '0.5' } });
    const text = describeRosterImport(dry);
    expect(text).toContain('would drop: 1 enrollment(s) left out by the sync');
    expect(text).toContain('~ enrollment B in C0: enrolled → completed');
    expect(text).toContain('- enrollment C in C0: completed → dropped');
    expect(await t.ctx.pool.query(`SELECT 1 FROM enrollments WHERE company_id = $1 AND status = 'dropped'`, [company.id])).toMatchObject({ rowCount: 0 });

    const set = await enrollmentSetStatus(rt, { args: [], opts: { company: company.slug, person: 'A', class: 'C0', status: 'dropped' } });
    expect(describeSetStatus(set)).toBe('A in C0: enrolled → dropped (1 enrollment.dropped event)');
    const again = await enrollmentSetStatus(rt, { args: [], opts: { company: company.slug, person: 'A', class: 'C0', status: 'dropped' } });
    expect(describeSetStatus(again)).toBe('unchanged: the enrollment already has this status');
    const events = await t.ctx.pool.query(`SELECT data FROM events WHERE company_id = $1 AND type = 'enrollment.dropped'`, [company.id]);
    expect(events.rows.map((r) => r.data)).toMatchObject([{ externalId: 'A', classCode: 'C0', previousStatus: 'enrolled', name: 'Ann' }]);
    expect(await failure(enrollmentSetStatus(rt, { args: [], opts: { company: company.slug, person: 'Z', class: 'C0', status: 'dropped' } }))).toBe('Person Z not found.');
    expect(await failure(rosterImport(rt, { args: [folder('empty', {})], opts }))).toContain('enrollments.csv is missing');
  });
});

// The exit code is what a scheduled import sees: the real binary, on this file's database.
describe('quorum roster import exit codes', { timeout: 180_000 }, () => {
  const quorum = (args: string[]) => runQuorum(['--json', 'roster', 'import', ...args], { DATABASE_URL: t.databaseUrl, QUORUM_DATA_DIR: dir });
  const enrollments = async (companyId: string) => (await t.ctx.pool.query('SELECT 1 FROM enrollments WHERE company_id = $1', [companyId])).rowCount;

  it('exits 3 when every row is refused, 2 when some are, 0 when none; names the files it does not know', async () => {
    const company = await t.company();
    await registerSchool(t, company.id);
    // An export in another system's shape: its own file names and headers.
    const foreign = folder('foreign', {
      'students.csv': 'id,first,last\nA,Ann,A\n',
      'enrollments.csv': 'student,section,role\nA,C0,student\nB,C0,student\n',
      '.DS_Store': '',
    });
    const nothing = await quorum(['--company', company.slug, foreign]);
    expect(nothing.code).toBe(ROSTER_EXIT.allRefused);
    expect(nothing.stderr).toContain('warning: ignored students.csv');
    expect(nothing.stderr).not.toContain('.DS_Store');
    expect(nothing.stderr).toContain('refused 2 of 2 row(s): nothing applied');
    expect(JSON.parse(nothing.stdout)).toMatchObject({
      unrecognisedFiles: ['students.csv'],
      refusedRows: 2,
      readRows: 2,
      errors: [{ path: 'enrollments[0].externalId', code: 'required' }, { path: 'enrollments[1].externalId' }],
    });
    expect(await enrollments(company.id)).toBe(0);

    const partly = folder('partly', { ...FILES, 'enrollments.csv': `${FILES['enrollments.csv']}D,C9,enrolled\n` });
    const some = await quorum(['--company', company.slug, partly]);
    expect(some.code).toBe(ROSTER_EXIT.someRefused);
    expect(JSON.parse(some.stdout)).toMatchObject({ created: { enrollments: 3 }, errors: [{ path: 'enrollments[3].externalId' }], unrecognisedFiles: [] });
    expect(await enrollments(company.id)).toBe(3);

    const clean = await quorum(['--company', company.slug, '--dry-run', folder('clean', FILES)]);
    expect(clean.code).toBe(ROSTER_EXIT.ok);
    expect(JSON.parse(clean.stdout)).toMatchObject({ result: { errors: [] }, refusedRows: 0 });
  });
});
