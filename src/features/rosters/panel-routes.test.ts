import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser, type PanelClient, type PanelSignIn } from '../../../test/panel.js';
import { registerSchool, rosterPayload, studentId } from '../../../test/rosters.js';
import { MANIFEST, ONEROSTER } from '../../../test/oneroster-package.js';

let t: TestApp;
let member: PanelSignIn & { client: PanelClient };
beforeAll(async () => {
  t = await startTestApp();
  member = await signInPanelUser(t, { permissions: ['rosters'] });
  await registerSchool(t, member.companyId!);
});
afterAll(async () => t?.close());

const post = (url: string, body: object) => member.client.post(member, `/panel/api${url}`, body);
const csv = (rows: string[]) => ['externalId,classCode,status', ...rows].join('\n');
const audits = async (action: string) => (await t.ctx.pool.query('SELECT details FROM audit_records WHERE company_id = $1 AND action = $2', [member.companyId, action])).rows;

describe('panel roster imports', () => {
  it('previews per class, refuses over the threshold with its details, applies after and audits only the applied import', async () => {
    expect((await post('/rosters/import', rosterPayload(2, 5))).statusCode).toBe(200);
    const kept = [0, 1, 2, 3].map((i) => `${studentId(i)},C0,enrolled`);
    const files = (rows: string[]) => [{ name: 'enrollments.csv', content: csv(rows) }, { name: 'README', content: 'x' }];

    const refused = await post('/rosters/import-files', { mode: 'sync', dryRun: true, files: files(kept.slice(0, 2)) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'DROP_THRESHOLD_EXCEEDED', details: { maxDropRatio: 0.2, classes: [{ classCode: 'C0', active: 5, dropping: 3, ratio: 0.6 }] } });

    const preview = await post('/rosters/import-files', { mode: 'sync', dryRun: true, files: files(kept) });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ byClass: [{ classCode: 'C0', created: 0, updated: 0, unchanged: 4, dropped: 1 }], events: 0, unrecognised: ['README'], result: { dryRun: true, dropped: 1 } });
    const auditedBefore = (await audits('roster.imported')).length;

    const applied = await post('/rosters/import-files', { mode: 'sync', files: files(kept) });
    expect(applied.json().data).toMatchObject({ events: 1, result: { dryRun: false, dropped: 1 } });
    expect(await audits('roster.imported')).toHaveLength(auditedBefore + 1);
  });

  it('reads a OneRoster package as the CLI does: the diff first with what it left out, then applied; a delta is not synced; no manifest is 400', async () => {
    const upload = (pkg: Record<string, string[]>) => Object.entries(pkg).map(([name, lines]) => ({ name, content: lines.join('\r\n') }));
    const preview = await post('/rosters/import-files', { mode: 'upsert', dryRun: true, format: 'oneroster', files: upload(ONEROSTER) });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({
      result: { dryRun: true, created: { people: 4, classes: 1, classGroups: 2, enrollments: 4 }, errors: [] },
      byClass: [{ classCode: 'cls-alg-1a', created: 4, dropped: 0 }],
      unrecognised: ['README.txt', 'demographics.csv'],
      ignored: [
        'users.csv: shoeSize (column not read)',
        'enrollments.csv: 1 row(s) with role parent (only students enroll; teachers are linked to their classes)',
        'users.csv: 1 row(s) with role parent (only students and teachers are imported)',
      ],
    });
    const applied = await post('/rosters/import-files', { mode: 'upsert', format: 'oneroster', files: upload(ONEROSTER) });
    expect(applied.json().data.result).toMatchObject({ dryRun: false, created: { enrollments: 4 } });
    const list = await member.client.get(member, '/panel/api/rosters/enrollments?classCode=cls-alg-1a');
    expect(list.json().data.map((e: { person: { externalId: string }; status: string }) => `${e.person.externalId}:${e.status}`).sort()).toEqual([
      'stu-1:enrolled', 'stu-2:completed', 'stu-3:enrolled', 'stu-4:enrolled',
    ]);

    const delta = { 'manifest.csv': MANIFEST('delta'), 'enrollments.csv': ONEROSTER['enrollments.csv'].slice(0, 2) };
    const synced = await post('/rosters/import-files', { mode: 'sync', dryRun: true, format: 'oneroster', files: upload(delta) });
    expect(synced.statusCode).toBe(400);
    expect(synced.json().error.details.fields).toMatchObject([{ path: 'mode' }]);
    const bare = await post('/rosters/import-files', { mode: 'upsert', dryRun: true, format: 'oneroster', files: upload({ 'users.csv': ONEROSTER['users.csv'] }) });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error.details.fields).toMatchObject([{ path: 'files', code: 'invalid_format', message: 'the uploaded files: no manifest.csv, so not a OneRoster CSV package' }]);
  });

  it('refuses files that are not a roster on files, and an unknown person or class by hand with 404', async () => {
    const missing = await post('/rosters/import-files', { mode: 'upsert', files: [{ name: 'people.csv', content: 'externalId,name\nX,Y' }] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details.fields).toMatchObject([{ path: 'files', code: 'required' }]);
    const broken = await post('/rosters/import-files', { mode: 'upsert', files: [{ name: 'enrollments.csv', content: 'a,b\n"unclosed' }] });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.details.fields[0].message).toMatch(/^enrollments\.csv: /);
    const unknown = await post('/rosters/enrollment-status', { externalId: 'nobody', classCode: 'C0', status: 'dropped' });
    expect(unknown.statusCode).toBe(404);
  });

  it('changes one enrollment by hand: an actual change to dropped emits once, the same status again nothing', async () => {
    const body = { externalId: studentId(0), classCode: 'C0', status: 'dropped' };
    expect((await post('/rosters/enrollment-status', body)).json().data).toEqual({ changed: true, fromStatus: 'enrolled', events: 1 });
    expect((await post('/rosters/enrollment-status', body)).json().data).toEqual({ changed: false, fromStatus: null, events: 0 });
    expect(await audits('enrollment.status_changed')).toHaveLength(1);
    const list = await member.client.get(member, '/panel/api/rosters/enrollments?status=dropped&classCode=C0');
    expect(list.json().data.map((e: { person: { externalId: string } }) => e.person.externalId)).toContain(studentId(0));
    const classes = await member.client.get(member, '/panel/api/rosters/classes');
    expect(classes.json().data.find((c: { code: string }) => c.code === 'C0')).toMatchObject({ classGroup: { code: 'Y2026' }, course: { code: 'MATH' }, orgUnit: { code: 'north-1' } });
  });
});
