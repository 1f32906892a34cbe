import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { companies } from '../../platform/db/schema.js';
import { updateCompanySettings } from './company-settings.js';
import { showCompany } from './show-company.js';
import { reserveQuota } from './quota.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('company settings', () => {
  it('shows the defaults (no locale forced) and an empty quota of the current UTC month', async () => {
    const company = await t.company();
    expect(await showCompany(t.ctx.db, t.ctx, { companyId: company.id })).toMatchObject({
      company: { id: company.id, slug: company.slug },
      settings: { monthlyQuota: 10_000, anonymityFloor: 5, timeZone: 'UTC', defaultCountry: 'BR', holidayCountry: null, locale: null, mailFrom: null },
      quota: { limit: 10_000, used: 0, reserved: 0, period: '2026-03' },
    });
    const [row] = await t.ctx.db.select({ settings: companies.settings }).from(companies).where(eq(companies.id, company.id));
    expect(row.settings).not.toHaveProperty('locale');
  });

  it('sets a locale and unsets it again with null', async () => {
    const company = await t.company();
    const set = await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { locale: 'es' } });
    expect(set.changes).toEqual({ locale: { from: null, to: 'es' } });
    const unset = await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { locale: null } });
    expect(unset.changes).toEqual({ locale: { from: 'es', to: null } });
    expect((await showCompany(t.ctx.db, t.ctx, { companyId: company.id })).settings.locale).toBeNull();
  });

  it('merges changes and keeps the other settings; the quota reflects the new limit', async () => {
    const company = await t.company();
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { monthlyQuota: 50, mailFrom: 'School <news@school.test>' } });
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { defaultCountry: 'PT', timeZone: 'Europe/Lisbon', locale: 'pt-BR' } });
    await reserveQuota(t.ctx.db, company.id, 50, '2026-03', 20);
    expect(await showCompany(t.ctx.db, t.ctx, { companyId: company.id })).toMatchObject({
      settings: { monthlyQuota: 50, mailFrom: 'School <news@school.test>', defaultCountry: 'PT', timeZone: 'Europe/Lisbon', locale: 'pt-BR' },
      quota: { limit: 50, used: 0, reserved: 20 },
    });
  });

  it('refuses bad values with a field path each, changing nothing', async () => {
    const company = await t.company();
    const bad = { monthlyQuota: -1, timeZone: 'Mars/Base', defaultCountry: 'XX', locale: 'fr', mailFrom: 'a <b>\r\nBcc: x' } as never;
    await expect(updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: bad })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: ['monthlyQuota', 'timeZone', 'defaultCountry', 'locale', 'mailFrom'].map((path) => expect.objectContaining({ path })) },
    });
    expect((await showCompany(t.ctx.db, t.ctx, { companyId: company.id })).settings.monthlyQuota).toBe(10_000);
  });

  it('renames the company with its settings in one update, and answers what changed', async () => {
    const company = await t.company();
    const update = await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, name: '  Escola Nova ', patch: { timeZone: 'America/Sao_Paulo', monthlyQuota: 10_000 } });
    expect(update).toMatchObject({ name: 'Escola Nova', settings: { timeZone: 'America/Sao_Paulo' } });
    expect(update.changes).toEqual({ name: { from: company.name, to: 'Escola Nova' }, timeZone: { from: 'UTC', to: 'America/Sao_Paulo' } });
    expect((await showCompany(t.ctx.db, t.ctx, { companyId: company.id })).company.name).toBe('Escola Nova');
    expect((await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { timeZone: 'America/Sao_Paulo' } })).changes).toEqual({});
  });

  it('reports a bad name together with bad settings, renaming nothing', async () => {
    const company = await t.company();
    await expect(updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, name: '   ', patch: { anonymityFloor: 5000 } })).rejects.toMatchObject({
      details: { fields: [expect.objectContaining({ path: 'name', code: 'required' }), expect.objectContaining({ path: 'anonymityFloor' })] },
    });
    await expect(updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, name: 'x'.repeat(201), patch: {} })).rejects.toMatchObject({
      details: { fields: [expect.objectContaining({ path: 'name', code: 'too_long' })] },
    });
    expect((await showCompany(t.ctx.db, t.ctx, { companyId: company.id })).company.name).toBe(company.name);
  });
});
