import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { importInvites } from './import-invites.js';
import { INVITE_STATUS } from './invite-view.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function setup() {
  const tenant = await t.tenant();
  const survey = await createSurvey(t, tenant.company.id);
  const run = (csv: string, form = survey.form, companyId = tenant.company.id) => importInvites(t.ctx.db, t.ctx, { companyId, form, source: Readable.from([csv]) });
  return { ...tenant, survey, run };
}

async function invitesOf(companyId: string) {
  const { rows } = await t.ctx.db.execute<{ email: string | null; phone: string | null; name: string | null; batch_id: string | null; dims: Record<string, string> }>(
    sql`SELECT email, phone, name, batch_id, dims FROM invites WHERE company_id = ${companyId} ORDER BY email NULLS LAST`,
  );
  return rows;
}

describe('importInvites (bulk import)', () => {
  it('creates invites normalised like POST /invites, reports duplicates and invalid rows with their lines, and never overwrites', async () => {
    const s = await setup();
    const existing = await t.post(s.token, `/v1/forms/${s.survey.form.id}/invites`, { email: 'kept@school.edu', name: 'Original' });
    expect(existing.statusCode).toBe(201);
    const csv = [
      'name,email,phone,externalId,expiresAt,dim.course',
      ' Ana ,  Ana@School.EDU ,,A-1,2026-12-31T23:59:00Z,MATH101', // line 2: created
      'Bo,,+55 (11) 98765-4321,,,', // line 3: created, phone to E.164
      'Changed,KEPT@school.edu,,,,', // line 4: duplicate of the existing invite
      'Again,ana@school.edu,,,,', // line 5: duplicate of line 2
      'Bad,not-an-email,,,,', // line 6: invalid e-mail
      'Old,old@school.edu,,,2020-01-01T00:00:00Z,', // line 7: expiry in the past
      'Nul,nul\u0000@school.edu,,,,', // line 8: NUL byte
      'Short,short@school.edu', // line 9: wrong column count
      'Course,course@school.edu,,,,NOPE999', // line 10: unknown course
      'Date,date@school.edu,,,tomorrow,', // line 11: not a date-time
      '', // empty lines are skipped
      'Last,last@school.edu,,,,HIST101', // line 13: created
    ].join('\n');
    const summary = await s.run(csv);

    expect(summary).toMatchObject({ rows: 11, created: 3, duplicates: 2, invalid: 6 });
    expect(summary.duplicateRows).toEqual([
      { line: 4, email: 'kept@school.edu', phone: null },
      { line: 5, email: 'ana@school.edu', phone: null },
    ]);
    const invalid = Object.fromEntries(summary.invalidRows.map((r) => [r.line, r.errors.map((e) => `${e.path}:${e.code}`)]));
    expect(invalid).toEqual({
      6: ['email:invalid_format'],
      7: ['expiresAt:too_small'],
      8: ['email:invalid_value'],
      9: ['row:invalid_format'],
      10: ['dims.course:unknown_entity'],
      11: ['expiresAt:invalid_format'],
    });

    const rows = await invitesOf(s.company.id);
    expect(rows).toEqual([
      { email: 'ana@school.edu', phone: null, name: 'Ana', batch_id: summary.batchId, dims: { course: s.survey.courses.MATH101 } },
      { email: 'kept@school.edu', phone: null, name: 'Original', batch_id: null, dims: {} },
      { email: 'last@school.edu', phone: null, name: 'Last', batch_id: summary.batchId, dims: { course: s.survey.courses.HIST101 } },
      { email: null, phone: '+5511987654321', name: 'Bo', batch_id: summary.batchId, dims: {} },
    ]);
  });

  it("gives the invites a batch that POST /invites/send selects: only the import's invites are queued", async () => {
    const s = await setup();
    await t.post(s.token, `/v1/forms/${s.survey.form.id}/invites`, { email: 'outside@school.edu' });
    const summary = await s.run('email\none@school.edu\ntwo@school.edu\n');
    const res = await t.post(s.token, `/v1/forms/${s.survey.form.id}/invites/send`, { channel: 'email', batchId: summary.batchId });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ queued: 2, skipped: [] });
    const { rows } = await t.ctx.db.execute<{ email: string; status: string }>(sql`SELECT i.email, ${INVITE_STATUS} AS status FROM invites i WHERE i.company_id = ${s.company.id} ORDER BY i.email`);
    expect(rows).toEqual([
      { email: 'one@school.edu', status: 'queued' },
      { email: 'outside@school.edu', status: 'created' },
      { email: 'two@school.edu', status: 'queued' },
    ]);
  });

  it('inserts thousands of rows in chunks, and an unclosed quote is reported with its line', async () => {
    const s = await setup();
    const body = Array.from({ length: 2500 }, (_, i) => `p${i}@school.edu`).join('\n');
    const summary = await s.run(`email\n${body}\n"open@school.edu\n`);
    expect(summary).toMatchObject({ created: 2500, duplicates: 0, invalid: 1 });
    expect(summary.invalidRows[0]).toMatchObject({ line: 2502, errors: [{ code: 'invalid_format' }] });
    const { rows } = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invites WHERE batch_id = ${summary.batchId}`);
    expect(rows[0].n).toBe(2500);
  });

  it('resolves the entity codes of a chunk in one query, and an unknown code still reports its own line', async () => {
    const s = await setup();
    const codes = ['MATH101', 'HIST101'];
    const body = Array.from({ length: 2500 }, (_, i) => {
      const line = i + 2;
      return `e${i}@school.edu,${line === 3 || line === 2001 ? `GONE${line}` : codes[i % 2]}`;
    }).join('\n');
    const sqlText = (query: unknown) => (t.ctx.db as unknown as { dialect: { sqlToQuery(q: unknown): { sql: string } } }).dialect.sqlToQuery(query).sql;
    const execute = vi.spyOn(t.ctx.db, 'execute');
    let summary;
    let entityLookups;
    try {
      summary = await s.run(`email,dim.course\n${body}\n`);
      entityLookups = execute.mock.calls.filter(([query]) => sqlText(query).includes('JOIN entities')).length;
    } finally {
      execute.mockRestore();
    }
    expect(entityLookups).toBe(3); // 1,000 + 1,000 + 500 rows
    expect(summary).toMatchObject({ rows: 2500, created: 2498, invalid: 2 });
    expect(summary.invalidRows).toEqual([
      { line: 3, errors: [{ path: 'dims.course', code: 'unknown_entity', message: 'No course has the id or code "GONE3".' }] },
      { line: 2001, errors: [{ path: 'dims.course', code: 'unknown_entity', message: 'No course has the id or code "GONE2001".' }] },
    ]);
    const { rows } = await t.ctx.db.execute<{ email: string; course: string }>(
      sql`SELECT email, dims->>'course' AS course FROM invites WHERE batch_id = ${summary.batchId} AND email IN ('e0@school.edu', 'e2000@school.edu', 'e2499@school.edu') ORDER BY email`,
    );
    expect(rows).toEqual([
      { email: 'e0@school.edu', course: s.survey.courses.MATH101 },
      { email: 'e2000@school.edu', course: s.survey.courses.MATH101 },
      { email: 'e2499@school.edu', course: s.survey.courses.HIST101 },
    ]);
  });

  it('refuses unknown columns without writing anything, and another company\'s form is not found', async () => {
    const s = await setup();
    await expect(s.run('email,colour\na@school.edu,red\n')).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'header.1', code: 'unknown_field' }] } });
    const batches = async () => (await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invite_batches WHERE company_id = ${s.company.id}`)).rows[0].n;
    expect(await batches()).toBe(0);
    expect(await invitesOf(s.company.id)).toEqual([]);
    // An accepted header writes the batch even when no row is valid: the summary names it.
    const empty = await s.run('email\nnot-an-email\n');
    expect(empty).toMatchObject({ created: 0, invalid: 1 });
    expect(await batches()).toBe(1);
    const other = await t.tenant();
    await expect(s.run('email\na@school.edu\n', s.survey.form, other.company.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await invitesOf(other.company.id)).toEqual([]);
  });
});
