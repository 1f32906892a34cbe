import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf } from '../../../test/audit-records.js';
import { runQuorum } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser, type PanelSignIn, type PanelClient } from '../../../test/panel.js';
import { reserveQuota } from './quota.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { mailFrom: 'Quorum <no-reply@quorum.test>' } });
});
afterAll(() => t.close());

const patch = (client: PanelClient, session: PanelSignIn, payload: object, options: object = {}) =>
  client.request(session, { method: 'PATCH', url: '/panel/api/settings', payload, ...options });

describe('GET /panel/api/settings', () => {
  it('shows the company, its settings with defaults, this month’s quota (used and reserved) and the deployment sender', async () => {
    const member = await signInPanelUser(t, { permissions: ['settings'] });
    const companyId = member.companyId!;
    await reserveQuota(t.ctx.db, companyId, 10_000, '2026-03', 7);
    await t.ctx.db.execute(sql`UPDATE quota_usage SET used = 3 WHERE company_id = ${companyId}`);
    const res = await member.client.get(member, '/panel/api/settings');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      company: { id: companyId },
      settings: { monthlyQuota: 10_000, anonymityFloor: 5, timeZone: 'UTC', defaultCountry: 'BR', holidayCountry: null, locale: null, mailFrom: null },
      quota: { limit: 10_000, used: 3, reserved: 7, period: '2026-03' },
      defaultMailFrom: 'Quorum <no-reply@quorum.test>',
    });
  });

  it('401 without a session, 403 without the settings permission; an owner holds it', async () => {
    const member = await signInPanelUser(t, { permissions: ['forms', 'integrations'] });
    expect((await member.client.get(null, '/panel/api/settings')).json().error.code).toBe('UNAUTHORIZED');
    const refused = await member.client.get(member, '/panel/api/settings');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'settings' } });
    expect((await patch(member.client, member, { timeZone: 'Europe/Lisbon' })).statusCode).toBe(403);
    const owner = await signInPanelUser(t, { owner: true });
    expect((await owner.client.get(owner, '/panel/api/settings')).statusCode).toBe(200);
  });
});

describe('PATCH /panel/api/settings', () => {
  it('changes the name and settings given, keeps the others, and audits what changed (nothing when nothing did)', async () => {
    const member = await signInPanelUser(t, { permissions: ['settings'] });
    const companyId = member.companyId!;
    const before = (await member.client.get(member, '/panel/api/settings')).json().data;
    const res = await patch(member.client, member, { name: 'Escola Azul', timeZone: 'America/Sao_Paulo', holidayCountry: 'BR', mailFrom: 'Escola Azul <avisos@azul.test>' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      company: { name: 'Escola Azul' },
      settings: { timeZone: 'America/Sao_Paulo', holidayCountry: 'BR', mailFrom: 'Escola Azul <avisos@azul.test>', monthlyQuota: 10_000, locale: null },
    });
    expect((await member.client.get(member, '/panel/api/settings')).json().data.settings.timeZone).toBe('America/Sao_Paulo');
    expect(await auditOf(t, companyId, 'settings.changed')).toEqual([
      {
        action: 'settings.changed',
        actorUserId: member.user.id,
        actorEmail: member.user.email,
        ip: '127.0.0.1',
        details: {
          section: 'company',
          changes: {
            name: { from: before.company.name, to: 'Escola Azul' },
            timeZone: { from: 'UTC', to: 'America/Sao_Paulo' },
            holidayCountry: { from: null, to: 'BR' },
            mailFrom: { from: null, to: 'Escola Azul <avisos@azul.test>' },
          },
        },
      },
    ]);
    expect((await patch(member.client, member, { timeZone: 'America/Sao_Paulo', holidayCountry: 'BR' })).statusCode).toBe(200);
    t.clock.advance(1000); // audit records are read back in time order
    expect((await patch(member.client, member, { holidayCountry: null, mailFrom: null, locale: 'pt-BR' })).json().data.settings).toMatchObject({ holidayCountry: null, mailFrom: null, locale: 'pt-BR' });
    t.clock.advance(1000);
    expect((await patch(member.client, member, { locale: null })).json().data.settings).toMatchObject({ locale: null });
    expect((await auditOf(t, companyId, 'settings.changed')).map((r) => Object.keys((r.details as { changes: object }).changes).sort())).toEqual([
      ['holidayCountry', 'mailFrom', 'name', 'timeZone'],
      ['holidayCountry', 'locale', 'mailFrom'],
      ['locale'],
    ]);
  });

  it('refuses bad values with one field error each, beside its path, changing and auditing nothing', async () => {
    const member = await signInPanelUser(t, { permissions: ['settings'] });
    const res = await patch(member.client, member, { name: ' ', timeZone: 'Mars/Base', defaultCountry: 'XX', holidayCountry: 'AQ', anonymityFloor: -1, mailFrom: 'a <b>\r\nBcc: x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['anonymityFloor', 'defaultCountry', 'holidayCountry', 'mailFrom', 'name', 'timeZone'].sort());
    const holiday = await patch(member.client, member, { holidayCountry: 'AQ' });
    expect(holiday.json().error.details.fields).toEqual([expect.objectContaining({ path: 'holidayCountry' })]);
    for (const payload of [{ locale: 'fr' }, { secretKey: 'x' }, { name: 'x'.repeat(201) }, { anonymityFloor: 1.5 }]) {
      const refused = await patch(member.client, member, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await member.client.get(member, '/panel/api/settings')).json().data.settings).toMatchObject({ timeZone: 'UTC', monthlyQuota: 10_000, defaultCountry: 'BR' });
    expect(await auditOf(t, member.companyId!, 'settings.changed')).toEqual([]);
  });

  it('shows the monthly quota read-only: the panel refuses to change it, the operator CLI changes it', { timeout: 120_000 }, async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const refused = await patch(owner.client, owner, { monthlyQuota: 999_999, anonymityFloor: 7 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.fields).toEqual([expect.objectContaining({ path: 'monthlyQuota' })]);
    const { rows } = await t.ctx.pool.query('SELECT slug FROM companies WHERE id = $1', [owner.companyId]);
    expect((await owner.client.get(owner, '/panel/api/settings')).json().data.settings).toMatchObject({ monthlyQuota: 10_000, anonymityFloor: 5 });
    expect(await auditOf(t, owner.companyId!, 'settings.changed')).toEqual([]);

    const cli = await runQuorum(['--json', 'company', 'set', '--company', rows[0].slug, '--monthly-quota', '250'], { DATABASE_URL: t.databaseUrl, QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-quota-')) });
    expect(cli.code, cli.stderr).toBe(0);
    const shown = (await owner.client.get(owner, '/panel/api/settings')).json().data;
    expect(shown.settings.monthlyQuota).toBe(250);
    expect(shown.quota.limit).toBe(250);
  });

  it('changes only the session’s company, and a request from another origin or without the CSRF token is refused', async () => {
    const member = await signInPanelUser(t, { permissions: ['settings'] });
    const other = await signInPanelUser(t, { permissions: ['settings'] });
    expect((await patch(member.client, member, { anonymityFloor: 9 })).statusCode).toBe(200);
    expect((await other.client.get(other, '/panel/api/settings')).json().data.settings.anonymityFloor).toBe(5);
    for (const options of [{ csrf: false }, { origin: 'https://evil.test' }]) {
      const refused = await patch(member.client, member, { anonymityFloor: 1 }, options);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.details).toEqual({ reason: 'csrf' });
    }
    expect((await member.client.get(member, '/panel/api/settings')).json().data.settings.anonymityFloor).toBe(9);
  });
});
