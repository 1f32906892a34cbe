import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditOf } from '../../../test/audit-records.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser } from '../../../test/panel.js';
import { suppress } from './suppressions.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const addressesOf = async (companyId: string) =>
  (await t.ctx.db.execute<{ address: string; reason: string }>(sql`SELECT address, reason FROM suppressions WHERE company_id = ${companyId} ORDER BY address`)).rows;

it('adds an e-mail or a national phone (E.164 in the default country), keeps the first reason, audits each address added once', async () => {
  const member = await signInPanelUser(t, { permissions: ['settings'] });
  const companyId = member.companyId!;
  // the clock moves between acts: audit records are read back in time order
  const add = (body: object) => (t.clock.advance(1000), member.client.post(member, '/panel/api/suppressions', body));
  expect((await add({ email: ' Ana@School.edu ', reason: 'manual' })).json().data).toEqual({ address: 'ana@school.edu', reason: 'manual', added: true });
  expect((await add({ phone: '(11) 98765-4321', reason: 'complained' })).json().data).toEqual({ address: '+5511987654321', reason: 'complained', added: true });
  expect((await add({ email: 'ana@school.edu', reason: 'bounced' })).json().data).toEqual({ address: 'ana@school.edu', reason: 'bounced', added: false });
  expect(await addressesOf(companyId)).toEqual([
    { address: '+5511987654321', reason: 'complained' },
    { address: 'ana@school.edu', reason: 'manual' },
  ]);
  expect((await auditOf(t, companyId, 'suppression.added')).map((r) => r.details)).toEqual([
    { address: 'ana@school.edu', reason: 'manual' },
    { address: '+5511987654321', reason: 'complained' },
  ]);
});

it('refuses a contact that is not one, both or neither, an unknown reason and unknown fields, with the field named', async () => {
  const member = await signInPanelUser(t, { permissions: ['settings'] });
  for (const [body, path] of [
    [{ email: 'not an address', reason: 'manual' }, 'email'],
    [{ phone: '12', reason: 'manual' }, 'phone'],
    [{ reason: 'manual' }, 'email'],
    [{ email: 'a@b.co', phone: '+5511987654321', reason: 'manual' }, 'email'],
    [{ email: 'a@b.co', reason: 'spam' }, 'reason'],
    [{ email: 'a@b.co', reason: 'manual', companyId: member.companyId }, 'companyId'],
    [{ email: `${'a'.repeat(320)}@b.co`, reason: 'manual' }, 'email'],
  ] as const) {
    const res = await member.client.post(member, '/panel/api/suppressions', body);
    expect(res.statusCode, JSON.stringify(body)).toBe(400);
    expect(res.json().error.details.fields, JSON.stringify(body)).toContainEqual(expect.objectContaining({ path }));
  }
  expect(await addressesOf(member.companyId!)).toEqual([]);
});

it('lists newest first, searches any case with wildcards literal, pages with the total; only the session company’s list', async () => {
  const member = await signInPanelUser(t, { permissions: ['settings'] });
  const other = await signInPanelUser(t, { permissions: ['settings'] });
  await suppress(t.ctx.db, t.ctx, { companyId: other.companyId!, addresses: ['hidden@school.edu'], reason: 'manual' });
  for (const address of ['a_1@school.edu', 'ab1@school.edu', 'x@elsewhere.org']) {
    t.clock.advance(1000);
    await suppress(t.ctx.db, t.ctx, { companyId: member.companyId!, addresses: [address], reason: 'bounced' });
  }
  const list = (query: string) => member.client.get(member, `/panel/api/suppressions${query}`);
  const all = (await list('')).json();
  expect(all.data.map((s: { address: string }) => s.address)).toEqual(['x@elsewhere.org', 'ab1@school.edu', 'a_1@school.edu']);
  expect(all.meta).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
  expect((await list('?search=SCHOOL&limit=1&page=2')).json()).toMatchObject({ data: [{ address: 'a_1@school.edu', reason: 'bounced' }], meta: { page: 2, limit: 1, total: 2, totalPages: 2 } });
  expect((await list('?search=a_')).json().data.map((s: { address: string }) => s.address)).toEqual(['a_1@school.edu']);
  expect((await list('?search=hidden')).json()).toMatchObject({ data: [], meta: { total: 0 } });
  for (const query of ['?limit=0', '?limit=101', `?search=${'x'.repeat(321)}`, '?page=0', '?sort=address']) expect((await list(query)).statusCode, query).toBe(400);
});

it('removes an address by its listed form (encoded in the path), 404 for one not on the company’s list, audited', async () => {
  const member = await signInPanelUser(t, { permissions: ['settings'] });
  const other = await signInPanelUser(t, { permissions: ['settings'] });
  await suppress(t.ctx.db, t.ctx, { companyId: member.companyId!, addresses: ['o+tag@school.edu', '+5511987654321'], reason: 'manual' });
  await suppress(t.ctx.db, t.ctx, { companyId: other.companyId!, addresses: ['theirs@school.edu'], reason: 'manual' });
  const remove = (address: string) => (t.clock.advance(1000), member.client.delete(member, `/panel/api/suppressions/${encodeURIComponent(address)}`));
  expect((await remove('o+tag@school.edu')).json()).toEqual({ success: true, data: { address: 'o+tag@school.edu', removed: true } });
  expect((await remove('+5511987654321')).statusCode).toBe(200);
  expect((await remove('o+tag@school.edu')).json().error.code).toBe('NOT_FOUND');
  expect((await remove('theirs@school.edu')).statusCode).toBe(404);
  expect(await addressesOf(other.companyId!)).toEqual([{ address: 'theirs@school.edu', reason: 'manual' }]);
  expect(await addressesOf(member.companyId!)).toEqual([]);
  expect((await auditOf(t, member.companyId!, 'suppression.removed')).map((r) => r.details)).toEqual([{ address: 'o+tag@school.edu' }, { address: '+5511987654321' }]);
  const forbidden = await signInPanelUser(t, { companyId: member.companyId!, permissions: ['invites'] });
  expect((await forbidden.client.get(forbidden, '/panel/api/suppressions')).statusCode).toBe(403);
  expect((await forbidden.client.post(forbidden, '/panel/api/suppressions', { email: 'a@b.co', reason: 'manual' })).statusCode).toBe(403);
});
