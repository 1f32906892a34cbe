import { sql } from 'drizzle-orm';
import { demoLinks } from '../features/respondent/pages/demo-links.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { demoBanner, demoSeeders, ensureDemo } from './seed-demo.js';
import { announceDemo } from './announce-demo.js';
import { DEMO_INVITE_FORM } from '../features/invites/seed-demo-invites.js';
import { listDevMail } from '../features/messaging/dev-mailbox.js';
import { listGoalRules } from '../features/goals/list-goal-rules.js';
import { DEMO_GOAL_FORMS } from '../features/goals/seed-demo-goals.js';
import { readCompanySettings } from '../features/companies/company-settings.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const demoCompanies = async () => (await t.ctx.pool.query(`SELECT count(*)::int AS n FROM companies WHERE slug = 'demo'`)).rows[0].n;

describe('ensureDemo', () => {
  it('removes a half-seeded demo when a seeder fails, so the next start can retry', async () => {
    const failing = async () => {
      throw new Error('seeder broke');
    };
    demoSeeders.push(failing);
    try {
      await expect(ensureDemo(t.ctx)).rejects.toThrow('seeder broke');
    } finally {
      demoSeeders.pop();
    }
    expect(await demoCompanies()).toBe(0);
  }, 180_000);

  it('creates the demo once with a working all-scopes key and demo data, then reuses it without the secret', async () => {
    const first = await ensureDemo(t.ctx);
    expect(first.created).toBe(true);
    if (!first.created) return;
    const me = await t.get(first.token, '/v1/me');
    expect(me.json().data.apiKey.scopes).toHaveLength(9);
    const forms = await t.get(first.token, '/v1/forms');
    expect(forms.json().meta.total).toBeGreaterThan(0);
    const banner = demoBanner(first, { api: 'http://localhost:3000/v1', docs: 'http://localhost:3000/docs' });
    expect(banner).toContain(`curl -H "Authorization: Bearer ${first.token}" http://localhost:3000/v1/me`);
    expect(banner).toContain('http://localhost:3000/dev/mail');
    expect(banner).toContain(`export BASE=http://localhost:3000 KEY=${first.token}`);
    // The tour's anonymous report by unit: the pilot unit, with 3 responses, is under the floor of 5.
    const anon = (await t.get(first.token, '/v1/forms?limit=100')).json().data.find((f: { slug: string }) => f.slug === 'orientation-week-2025');
    const groups = (await t.get(first.token, `/v1/forms/${anon.id}/report?groupBy=orgUnit`)).json().data.groups as { key: string; suppressed: boolean }[];
    const { rows: pilot } = await t.ctx.db.execute<{ id: string; name: string }>(sql`SELECT id, name FROM entities WHERE company_id = ${first.company.id} AND kind = 'unit' AND code = 'ONLINE-PILOT'`);
    expect(pilot).toEqual([{ id: expect.any(String), name: 'Evening pilot programme (Online)' }]);
    // a suppressed group is its key and the flag alone: not even the unit's name
    expect(groups.filter((group) => group.suppressed)).toEqual([{ key: pilot[0].id, suppressed: true }]);
    expect(groups.filter((group) => !group.suppressed).length).toBeGreaterThan(3);

    // The invites of the demo: one import batch in several states, two of them in the dev mailbox.
    const form = (await t.get(first.token, '/v1/forms?limit=100')).json().data.find((f: { slug: string }) => f.slug === DEMO_INVITE_FORM);
    const invites = (await t.get(first.token, `/v1/forms/${form.id}/invites`)).json().data as { status: string; email: string | null; batchId: string }[];
    expect(invites.map((i) => i.status).sort()).toEqual(['created', 'created', 'queued', 'revoked', 'sent', 'sent']);
    expect(new Set(invites.map((i) => i.batchId)).size).toBe(1);
    const mail = await listDevMail(t.ctx.db, t.ctx);
    // The failed seeding above sent too: the mailbox is the machine's, not the company's.
    expect([...new Set(mail.map((m) => m.to))].sort()).toEqual(['ana.silva@demo.school', 'bruno.souza@demo.school']);
    expect(mail[0].headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

    // Treatments: a flow on the library survey, with open, overdue and closed cases; Brazil's public holidays skipped.
    expect((await readCompanySettings(t.ctx.db, t.ctx, { companyId: first.company.id })).holidayCountry).toBe('BR');
    // its look: the teal book logo and colour on its pages, served by Quorum; no forced language
    const settings = await readCompanySettings(t.ctx.db, t.ctx, { companyId: first.company.id });
    expect(settings).toMatchObject({ brandColor: '#0f766e', locale: null, logo: expect.stringMatching(/^[0-9a-f]{64}\.png$/) });
    const logo = await t.app.inject({ url: `/r/logos/${first.company.id}/${settings.logo}` });
    expect([logo.statusCode, logo.headers['content-type']]).toEqual([200, 'image/png']);
    const cases = (await t.get(first.token, '/v1/treatments?limit=100')).json().data as { status: string; overdue: boolean; outcome: string | null }[];
    expect(cases.filter((c) => c.status === 'closed').map((c) => c.outcome).sort()).toEqual(['duplicate', 'resolved']);
    expect(cases.filter((c) => c.status === 'open' && c.overdue).length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.status === 'open' && !c.overdue).length).toBeGreaterThan(0);

    // The banner's two links answer in the browser: the public form and an open invite's personal link.
    const links = await demoLinks(t.ctx.db, t.ctx, { company: first.company, urls: { origin: 'http://localhost:3000', formUrl: 'http://localhost:3000/i' }, now: t.clock.now() });
    const withLinks = demoBanner(first, { api: 'http://localhost:3000/v1', docs: 'http://localhost:3000/docs' }, links);
    expect(withLinks).toContain(`${links.publicLink}  (public link)`);
    expect(withLinks).toContain(`${links.personalLink}  (personal link of an invite)`);
    for (const link of [links.publicLink, links.personalLink!]) expect((await t.app.inject({ url: new URL(link).pathname })).statusCode, link).toBe(200);
    // The goals of the demo: the next response to either public form crosses one.
    const counts = Object.fromEntries((await t.get(first.token, '/v1/forms?limit=100')).json().data.map((f: { slug: string; responseCount: number }) => [f.slug, f.responseCount]));
    expect((await listGoalRules(t.ctx.db, t.ctx, { companyId: first.company.id })).map((r) => [r.formSlug, r.goal, r.armed])).toEqual(
      DEMO_GOAL_FORMS.toSorted().map((slug) => [slug, counts[slug] + 1, true]),
    );

    // What npm start and quorum demo print, from the context's own addresses.
    const announced = await announceDemo(t.ctx);
    expect(announced.demo.created).toBe(false);
    expect(announced.banner).toContain(`${new URL(t.ctx.config.publicApiUrl).origin}/f/demo/${DEMO_INVITE_FORM}  (public link)`);
    expect(announced.banner).toContain(`${t.ctx.config.publicFormUrl}/`);
    expect(announced.banner).not.toContain('qk_');
    // The panel: the demo owner is made on this start, with a one-time sign-in link (never a password).
    expect(announced.banner).toContain(`Panel:         ${t.ctx.config.publicPanelUrl}`);
    expect(announced.owner.signInUrl).toMatch(/\/link#token=[A-Za-z0-9_-]{43}$/);
    expect(announced.banner).toContain(announced.owner.signInUrl);
    expect(announced.banner).not.toMatch(/password:/i);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/panel/api/session/link',
      headers: { origin: new URL(t.ctx.config.publicPanelUrl).origin },
      payload: { token: new URL(announced.owner.signInUrl!).hash.slice('#token='.length) },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data).toMatchObject({ company: { id: first.company.id }, owner: true });
    // later starts print the address only
    const later = await announceDemo(t.ctx);
    expect(later.owner.signInUrl).toBeNull();
    expect(later.banner).not.toContain('#token=');

    const second = await ensureDemo(t.ctx);
    expect(second.created).toBe(false);
    const again = demoBanner(second, { api: 'http://localhost:3000/v1', docs: 'http://localhost:3000/docs' });
    expect(again).not.toContain('qk_');
    expect(again).toContain('quorum key create --company demo');
    expect(again).toContain('/dev/mail');
    expect(again).toContain('export BASE=http://localhost:3000 KEY=<the new key>');
    expect(await demoCompanies()).toBe(1);
  }, 180_000);
});
