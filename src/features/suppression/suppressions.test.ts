import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { updateCompanySettings } from '../companies/company-settings.js';
import { addSuppression, listSuppressions, suppress, unsuppress } from './suppressions.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('adds one contact normalised (phones in the default country), keeps the first reason, and says whether it was new', async () => {
  const company = await t.company();
  await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { defaultCountry: 'BR' } });
  expect(await addSuppression(t.ctx.db, t.ctx, { companyId: company.id, email: ' Ana@School.EDU ', reason: 'manual' })).toEqual({ address: 'ana@school.edu', reason: 'manual', added: true });
  expect(await addSuppression(t.ctx.db, t.ctx, { companyId: company.id, phone: '(11) 98765-4321', reason: 'complained' })).toEqual({ address: '+5511987654321', reason: 'complained', added: true });
  expect(await addSuppression(t.ctx.db, t.ctx, { companyId: company.id, email: 'ana@school.edu', reason: 'bounced' })).toMatchObject({ added: false });
  expect((await listSuppressions(t.ctx.db, t.ctx, { companyId: company.id })).items.find((s) => s.address === 'ana@school.edu')?.reason).toBe('manual');
  for (const input of [{}, { email: 'a@b.co', phone: '+5511987654321' }, { email: 'not an address' }, { phone: '12' }]) {
    await expect(addSuppression(t.ctx.db, t.ctx, { companyId: company.id, reason: 'manual', ...input })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  }
  await expect(addSuppression(t.ctx.db, t.ctx, { companyId: company.id, email: 'b@school.edu', reason: 'other' as never })).rejects.toMatchObject({
    details: { fields: [expect.objectContaining({ path: 'reason' })] },
  });
});

it('searches addresses containing the text in any case, wildcards taken literally, newest first, one page at a time with the total', async () => {
  const company = await t.company();
  const other = await t.company();
  await suppress(t.ctx.db, t.ctx, { companyId: other.id, addresses: ['a_1@school.edu'], reason: 'manual' });
  for (const [i, address] of ['a_1@school.edu', 'ab1@school.edu', 'x@elsewhere.org', 'a%2@school.edu'].entries()) {
    t.clock.advance(1000 * (i + 1));
    await suppress(t.ctx.db, t.ctx, { companyId: company.id, addresses: [address], reason: 'bounced' });
  }
  const list = (input: object) => listSuppressions(t.ctx.db, t.ctx, { companyId: company.id, ...input });
  expect((await list({})).items.map((s) => s.address)).toEqual(['a%2@school.edu', 'x@elsewhere.org', 'ab1@school.edu', 'a_1@school.edu']);
  expect((await list({ search: 'SCHOOL' })).total).toBe(3);
  expect((await list({ search: 'a_' })).items.map((s) => s.address)).toEqual(['a_1@school.edu']);
  expect((await list({ search: '%' })).items.map((s) => s.address)).toEqual(['a%2@school.edu']);
  expect(await list({ search: 'school', page: { page: 2, limit: 2 } })).toMatchObject({ total: 3, items: [{ address: 'a_1@school.edu', reason: 'bounced' }] });
  expect(await list({ page: { page: 9, limit: 2 } })).toEqual({ items: [], total: 4 });
  expect(await unsuppress(t.ctx.db, t.ctx, { companyId: company.id, address: 'a_1@school.edu' })).toBe(true);
  expect(await unsuppress(t.ctx.db, t.ctx, { companyId: company.id, address: 'a_1@school.edu' })).toBe(false);
  expect((await listSuppressions(t.ctx.db, t.ctx, { companyId: other.id })).items.map((s) => s.address)).toEqual(['a_1@school.edu']);
});
