import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { updateCompanySettings } from '../companies/company-settings.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function tenantWithSurvey() {
  const tenant = await t.tenant();
  const survey = await createSurvey(t, tenant.company.id);
  return { ...tenant, survey, invites: `/v1/forms/${survey.form.id}/invites` };
}

async function events(companyId: string, type: string) {
  const { rows } = await t.ctx.db.execute<{ data: any }>(sql`SELECT data FROM events WHERE company_id = ${companyId} AND type = ${type} ORDER BY occurred_at, id`);
  return rows.map((row) => row.data);
}

describe('POST /v1/forms/{id}/invites', () => {
  let s: Awaited<ReturnType<typeof tenantWithSurvey>>;
  beforeAll(async () => {
    s = await tenantWithSurvey();
  });

  it('creates an invite (201) with normalised contact, resolved dims and the personal url; sends nothing', async () => {
    const res = await t.post(s.token, s.invites, {
      name: ' Ana ',
      email: '  Ana.Souza@School.EDU ',
      phone: '(11) 98765-4321',
      externalId: 'stu-1',
      expiresAt: '2026-04-01T00:00:00.000Z',
      dims: { course: 'MATH101', cohortYear: 2026 },
    });
    expect(res.statusCode).toBe(201);
    const invite = res.json().data;
    expect(invite).toMatchObject({
      status: 'created',
      effectiveStatus: 'created',
      email: 'ana.souza@school.edu',
      phone: '+5511987654321',
      name: 'Ana',
      externalId: 'stu-1',
      expiresAt: '2026-04-01T00:00:00.000Z',
      dims: { course: s.survey.courses.MATH101, cohortYear: '2026' },
      batchId: null,
    });
    expect(invite.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invite.url).toBe(`${t.ctx.config.publicFormUrl}/${invite.token}`);
    const { rows } = await t.ctx.db.execute(sql`SELECT 1 FROM invite_messages WHERE invite_id = ${invite.id}`);
    expect(rows).toHaveLength(0);
    expect(await events(s.company.id, 'invite.sent')).toHaveLength(0);
  });

  it("reads phones without + in the company's default country", async () => {
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: s.company.id, patch: { defaultCountry: 'PT' } });
    const res = await t.post(s.token, s.invites, { phone: '912 345 678' });
    expect(res.json().data.phone).toBe('+351912345678');
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: s.company.id, patch: { defaultCountry: 'BR' } });
  });

  it('answers 409 DUPLICATE_INVITE for the same e-mail (any spelling) or the same phone on the form', async () => {
    expect((await t.post(s.token, s.invites, { email: 'dup@school.edu' })).statusCode).toBe(201);
    const again = await t.post(s.token, s.invites, { email: ' DUP@School.edu' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('DUPLICATE_INVITE');
    expect((await t.post(s.token, s.invites, { phone: '+55 11 90000-0001' })).statusCode).toBe(201);
    expect((await t.post(s.token, s.invites, { email: 'other@school.edu', phone: '11900000001' })).json().error.code).toBe('DUPLICATE_INVITE');
  });

  it('gives one 201 and 49 409 for 50 concurrent creations of one contact', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => t.post(s.token, s.invites, { email: 'race@school.edu', name: 'Race' })));
    const codes = results.map((res) => res.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    const { rows } = await t.ctx.db.execute(sql`SELECT 1 FROM invites WHERE email = 'race@school.edu'`);
    expect(rows).toHaveLength(1);
  });

  it('refuses bad input with VALIDATION_ERROR and a field path each', async () => {
    const cases: [unknown, string, string][] = [
      [{ name: 'No contact' }, 'email', 'required'],
      [{ email: 'not-an-address' }, 'email', 'invalid_format'],
      [{ phone: '12' }, 'phone', 'invalid_format'],
      [{ email: 'past@school.edu', expiresAt: '2026-03-01T00:00:00.000Z' }, 'expiresAt', 'too_small'],
      [{ email: 'dims@school.edu', dims: { course: 'NOPE999' } }, 'dims.course', 'unknown_entity'],
      [{ email: 'dims@school.edu', dims: { colour: 'red' } }, 'dims.colour', 'unknown_field'],
    ];
    for (const [body, path, code] of cases) {
      const res = await t.post(s.token, s.invites, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.fields).toContainEqual(expect.objectContaining({ path, code }));
    }
    const extra = await t.post(s.token, s.invites, { email: 'x@school.edu', status: 'responded' });
    expect(extra.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('answers 404 for a form that does not exist or is not a UUID', async () => {
    expect((await t.post(s.token, '/v1/forms/00000000-0000-7000-8000-000000000000/invites', { email: 'a@b.co' })).statusCode).toBe(404);
    expect((await t.post(s.token, '/v1/forms/nope/invites', { email: 'a@b.co' })).statusCode).toBe(404);
  });
});

describe('GET /v1/forms/{id}/invites', () => {
  let s: Awaited<ReturnType<typeof tenantWithSurvey>>;
  const ids: string[] = [];
  beforeAll(async () => {
    s = await tenantWithSurvey();
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      ids.push((await t.post(s.token, s.invites, { email: `p${i}@school.edu`, expiresAt: '2026-03-03T09:00:00.000Z' })).json().data.id);
    }
  });

  it('pages newest first with cursors, total on the first page only, no row twice', async () => {
    const first = (await t.get(s.token, `${s.invites}?limit=2`)).json();
    expect(first.meta).toMatchObject({ limit: 2, hasMore: true, total: 5 });
    expect(first.data.map((i: any) => i.id)).toEqual([ids[4], ids[3]]);
    t.clock.advance(1000);
    await t.post(s.token, s.invites, { email: 'during-scan@school.edu' });
    const second = (await t.get(s.token, `${s.invites}?limit=2&cursor=${first.meta.nextCursor}`)).json();
    expect(second.meta.total).toBeUndefined();
    expect(second.data.map((i: any) => i.id)).toEqual([ids[2], ids[1]]);
    const third = (await t.get(s.token, `${s.invites}?limit=2&cursor=${second.meta.nextCursor}`)).json();
    expect(third.data.map((i: any) => i.id)).toEqual([ids[0]]);
    expect(third.meta).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('shows expiry in effectiveStatus at once while status keeps the stored value; status filters the stored one', async () => {
    t.clock.set('2026-03-04T00:00:00.000Z');
    const page = (await t.get(s.token, `${s.invites}?status=created&limit=100`)).json();
    const expiring = page.data.filter((i: any) => ids.includes(i.id));
    expect(expiring).toHaveLength(5);
    for (const invite of expiring) expect(invite).toMatchObject({ status: 'created', effectiveStatus: 'expired' });
    expect((await t.get(s.token, `${s.invites}?status=expired`)).json().data).toEqual([]);
  });

  it('refuses a cursor of another filter or company, a tampered one, page and bad parameters', async () => {
    const first = (await t.get(s.token, `${s.invites}?limit=1`)).json();
    const cursor = first.meta.nextCursor;
    expect((await t.get(s.token, `${s.invites}?status=queued&cursor=${cursor}`)).json().error.code).toBe('INVALID_CURSOR');
    expect((await t.get(s.token, `${s.invites}?cursor=${cursor.slice(0, -2)}xx`)).json().error.code).toBe('INVALID_CURSOR');
    const other = await tenantWithSurvey();
    expect((await t.get(other.token, `${other.invites}?cursor=${cursor}`)).json().error.code).toBe('INVALID_CURSOR');
    expect((await t.get(s.token, `${s.invites}?page=2`)).json().error.code).toBe('PAGE_NOT_SUPPORTED');
    expect((await t.get(s.token, `${s.invites}?status=lost`)).json().error.code).toBe('VALIDATION_ERROR');
    expect((await t.get(s.token, `${s.invites}?limit=101`)).json().error.code).toBe('VALIDATION_ERROR');
  });

  it('is readable with invites:write alone', async () => {
    const { token } = await t.key(s.company.id, { scopes: ['invites:write'] });
    expect((await t.get(token, s.invites)).statusCode).toBe(200);
  });
});

describe('POST /v1/invites/{id}/revoke', () => {
  it('revokes (200, status revoked), emits invite.revoked once, and a second revoke changes nothing', async () => {
    const s = await tenantWithSurvey();
    const invite = (await t.post(s.token, s.invites, { email: 'rev@school.edu', name: 'Rev', externalId: 'x9' })).json().data;
    const res = await t.post(s.token, `/v1/invites/${invite.id}/revoke`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: invite.id, status: 'revoked', effectiveStatus: 'revoked' });
    expect((await t.post(s.token, `/v1/invites/${invite.id}/revoke`)).json().data.status).toBe('revoked');
    expect(await events(s.company.id, 'invite.revoked')).toEqual([
      {
        formId: s.survey.form.id,
        formName: s.survey.form.name,
        inviteId: invite.id,
        status: 'revoked',
        channel: null,
        batchId: null,
        respondent: { name: 'Rev', email: 'rev@school.edu', phone: null, externalId: 'x9' },
        failReason: null,
      },
    ]);
  });

  it('answers 409 ALREADY_RESPONDED for an answered invite, leaving it responded', async () => {
    const s = await tenantWithSurvey();
    const invite = (await t.post(s.token, s.invites, { email: 'done@school.edu' })).json().data;
    await t.ctx.db.execute(sql`UPDATE invites SET status = 'responded' WHERE id = ${invite.id}`);
    const res = await t.post(s.token, `/v1/invites/${invite.id}/revoke`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ALREADY_RESPONDED');
    expect(await events(s.company.id, 'invite.revoked')).toHaveLength(0);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const s = await tenantWithSurvey();
    expect((await t.post(s.token, '/v1/invites/00000000-0000-7000-8000-000000000000/revoke')).statusCode).toBe(404);
    expect((await t.post(s.token, '/v1/invites/x/revoke')).statusCode).toBe(404);
  });
});





