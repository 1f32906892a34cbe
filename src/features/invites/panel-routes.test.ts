import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditOf } from '../../../test/audit-records.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser } from '../../../test/panel.js';
import { createSurvey } from '../../../test/responses.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function setup() {
  const member = await signInPanelUser(t, { permissions: ['invites'] });
  const survey = await createSurvey(t, member.companyId!);
  const base = `/panel/api/forms/${survey.form.id}/invites`;
  const post = (url: string, body: object) => member.client.post(member, url, body);
  const get = (url: string) => member.client.get(member, url);
  return { member, survey, base, post, get, companyId: member.companyId! };
}

const invitesOf = async (companyId: string) =>
  (await t.ctx.db.execute<{ email: string; batch_id: string | null }>(sql`SELECT email, batch_id FROM invites WHERE company_id = ${companyId} ORDER BY email`)).rows;

it('reads a CSV and an XLSX into columns and rows, and refuses a file that is neither', async () => {
  const s = await setup();
  const csv = Buffer.from('Full name,Mail\nAna,ana@school.edu\n"Bo, Jr",bo@school.edu\n');
  const read = await s.post('/panel/api/invites/import/read', { fileName: 'list.csv', content: csv.toString('base64') });
  expect(read.statusCode, read.body).toBe(200);
  expect(read.json().data).toEqual({ columns: ['Full name', 'Mail'], rows: [{ line: 2, cells: ['Ana', 'ana@school.edu'] }, { line: 3, cells: ['Bo, Jr', 'bo@school.edu'] }] });

  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contacts');
  sheet.addRows([['name', 'email', 'expiresAt'], ['Cy', 'cy@school.edu', new Date('2026-12-31T23:59:59Z')]]);
  const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
  const book = await s.post('/panel/api/invites/import/read', { fileName: 'list.xlsx', content: xlsx.toString('base64') });
  expect(book.json().data).toEqual({ columns: ['name', 'email', 'expiresAt'], rows: [{ line: 2, cells: ['Cy', 'cy@school.edu', '2026-12-31T23:59:59.000Z'] }] });

  const broken = await s.post('/panel/api/invites/import/read', { fileName: 'list.xlsx', content: Buffer.from('PK not a zip').toString('base64') });
  expect(broken.statusCode).toBe(400);
  expect(broken.json().error.details.fields).toEqual([expect.objectContaining({ path: 'content', code: 'invalid_format' })]);
});

it('checks mapped rows without writing, then imports them in parts into one batch, audited', async () => {
  const s = await setup();
  const columns = ['name', 'email'];
  const rows = [
    { line: 2, cells: ['Ana', 'ana@school.edu'] },
    { line: 3, cells: ['Bad', 'not-an-address'] },
    { line: 4, cells: ['Bo', 'BO@school.edu'] },
  ];
  const check = await s.post(`${s.base}/import`, { columns, rows, dryRun: true });
  expect(check.statusCode, check.body).toBe(200);
  expect(check.json().data).toMatchObject({ batchId: null, rows: 3, created: 0, invalid: 1, invalidRows: [{ line: 3, errors: [expect.objectContaining({ path: 'email' })] }] });
  expect(await invitesOf(s.companyId)).toEqual([]);

  const first = (await s.post(`${s.base}/import`, { columns, rows: [rows[0]] })).json().data;
  expect(first).toMatchObject({ rows: 1, created: 1, invalid: 0, batchId: expect.any(String) });
  const second = (await s.post(`${s.base}/import`, { columns, rows: [rows[2], { line: 5, cells: ['Ana again', 'ana@school.edu'] }], batchId: first.batchId })).json().data;
  expect(second).toMatchObject({ batchId: first.batchId, created: 1, duplicates: 1, duplicateRows: [{ line: 5, email: 'ana@school.edu' }] });
  expect(await invitesOf(s.companyId)).toEqual([
    { email: 'ana@school.edu', batch_id: first.batchId },
    { email: 'bo@school.edu', batch_id: first.batchId },
  ]);
  expect((await auditOf(t, s.companyId, 'invites.imported')).map((r) => r.details)).toHaveLength(2);

  // A column outside the vocabulary, and a batch that is no import of this form, are refused before anything is written.
  const unknown = await s.post(`${s.base}/import`, { columns: ['mail'], rows: [{ line: 2, cells: ['x@school.edu'] }] });
  expect(unknown.json().error.details.fields).toEqual([expect.objectContaining({ path: 'header.0', code: 'unknown_field' })]);
  const sendBatch = (await s.post(`${s.base}/send`, { channel: 'email' })).json().data.batchId;
  const foreign = await s.post(`${s.base}/import`, { columns, rows: [{ line: 2, cells: ['Cy', 'cy@school.edu'] }], batchId: sendBatch });
  expect(foreign.json().error?.details.fields, foreign.body).toEqual([expect.objectContaining({ path: 'batchId', code: 'unknown_reference' })]);
  expect(await invitesOf(s.companyId)).toHaveLength(2);
});

it('lists with the status filter and counts per effectiveStatus; the timeline follows an invite from created to revoked', async () => {
  const s = await setup();
  const create = async (body: object) => (await s.post(s.base, body)).json().data;
  const a = await create({ email: 'a@school.edu' });
  const b = await create({ email: 'b@school.edu', expiresAt: '2026-03-02T09:30:00.000Z' });
  await create({ phone: '+5511987654321' });
  const dry = (await s.post(`${s.base}/send`, { channel: 'email', dryRun: true })).json().data;
  expect(dry).toMatchObject({ dryRun: true, queued: 2, skipped: [{ reason: 'no_email' }], quota: { requested: 2, fits: true } });
  const sent = (await s.post(`${s.base}/send`, { channel: 'email', inviteIds: [a.id] })).json().data;
  expect(sent).toMatchObject({ queued: 1, skipped: [] });
  t.clock.set('2026-03-02T10:00:00.000Z');

  expect((await s.get(`${s.base}/counts`)).json().data).toMatchObject({ created: 1, queued: 1, expired: 1, revoked: 0 });
  const queued = (await s.get(`${s.base}?status=queued`)).json();
  expect(queued.data.map((i: { id: string }) => i.id)).toEqual([a.id]);
  expect(queued.meta).toMatchObject({ total: 1, hasMore: false });
  expect((await s.get(`${s.base}?status=created`)).json().data.find((i: { id: string }) => i.id === b.id)).toMatchObject({ status: 'created', effectiveStatus: 'expired' });

  const revoked = (await s.post(`${s.base}/revoke`, { inviteIds: [a.id, b.id] })).json().data;
  expect(revoked).toEqual({ revoked: [a.id, b.id], unchanged: [] });
  expect((await s.post(`${s.base}/revoke`, { inviteIds: [a.id] })).json().data).toEqual({ revoked: [], unchanged: [a.id] });
  const timeline = (await s.get(`/panel/api/invites/${a.id}/timeline`)).json().data;
  expect(timeline.invite).toMatchObject({ id: a.id, status: 'revoked' });
  expect(timeline.steps.map((step: { stage: string }) => step.stage)).toEqual(['created', 'queued', 'revoked']);
  expect(timeline.steps[1]).toMatchObject({ channel: 'email' });
  expect((await auditOf(t, s.companyId, 'invite.revoked')).map((r) => r.details)).toEqual([{ inviteIds: [a.id, b.id], formId: s.survey.form.id }]);
  expect(await auditOf(t, s.companyId, 'invites.sent')).toHaveLength(1);
});

it("hides another company's form and invite", async () => {
  const s = await setup();
  const other = await setup();
  const invite = (await other.post(other.base, { email: 'x@school.edu' })).json().data;
  expect((await s.get(other.base)).statusCode).toBe(404);
  expect((await s.get(`/panel/api/invites/${invite.id}/timeline`)).statusCode).toBe(404);
  expect((await s.post(`${other.base}/revoke`, { inviteIds: [invite.id] })).statusCode).toBe(404);
  expect((await s.post(`${s.base}/revoke`, { inviteIds: [invite.id] })).json().data).toEqual({ revoked: [], unchanged: [invite.id] });
  const forms = (await s.get('/panel/api/invites/forms')).json().data;
  expect(forms.map((f: { id: string }) => f.id)).toEqual([s.survey.form.id]);
});
