import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRuntime } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { registerSchool } from '../../../test/rosters.js';
import { describeError } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { describeSetStatus, enrollmentSetStatus } from './enrollment.js';
import { describeRosterImport, rosterImport } from './roster.js';

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
