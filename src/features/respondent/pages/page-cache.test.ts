import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { cookiesOf, createInvite, createSteppedForm, steppedForm, STEPPED_TRANSLATIONS } from '../../../../test/respondent-pages.js';
import { updateCompanySettings } from '../../companies/company-settings.js';
import { importForm } from '../../forms/import-form.js';
import { PageCache, variantKey } from './page-cache.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());

/** A GET of the page and the statements it sent to the database: one when the page was kept. */
async function view(url: string, headers: Record<string, string> = {}) {
  const pool = t.ctx.pool;
  let statements = 0;
  const query = pool.query.bind(pool);
  pool.query = ((...args: Parameters<typeof query>) => {
    statements += 1;
    return query(...args);
  }) as typeof pool.query;
  try {
    const res = await t.app.inject({ url, headers });
    return { res, statements };
  } finally {
    delete (pool as { query?: unknown }).query;
  }
}


describe('a personal link page kept once drawn', () => {
  it('is served again from one statement, with its security headers on every response', async () => {
    const { company, token } = await t.tenant();
    const { form } = await createSteppedForm(t, company.id);
    const url = `/i/${(await createInvite(t, token, form.id)).token}`;

    const first = await view(url);
    const again = await view(url);
    expect(first.statements).toBeGreaterThan(1);
    expect(again.statements).toBe(1);
    expect(again.res.statusCode).toBe(200);
    expect(again.res.body).toBe(first.res.body);
    for (const header of ['content-type', 'content-security-policy', 'cache-control', 'referrer-policy', 'x-content-type-options']) {
      expect(again.res.headers[header], header).toBe(first.res.headers[header]);
    }
    expect(again.res.headers['x-request-id']).not.toBe(first.res.headers['x-request-id']);
    expect(again.res.headers['ratelimit-remaining']).toBeDefined();
  });

  it('is drawn again after a draft, an open, a new form version, a company change; refused once answered', async () => {
    const { company, token } = await t.tenant();
    const { form, q, option } = await createSteppedForm(t, company.id);
    const invite = await createInvite(t, token, form.id);
    const url = `/i/${invite.token}`;
    expect((await view(url)).res.body).toContain('Step 1 of 3');
    expect((await view(url)).statements).toBe(1);

    // the page script autosaves the draft: the page opens on the draft's section with its answers
    const draft = { [q('campus')]: option('campus', 'north'), [q('attended')]: true };
    const saved = await t.app.inject({ method: 'PUT', url: `/r/v1/invites/${invite.token}/draft`, payload: { answers: draft, sectionIndex: 2 } });
    expect(saved.statusCode).toBe(200);
    const onDraft = await view(url);
    expect(onDraft.statements).toBeGreaterThan(1);
    expect(onDraft.res.body).toContain('Step 2 of 2');
    expect(onDraft.res.body).toContain('data-seen=');

    // the script reports the page seen: the next page no longer asks to
    expect((await t.app.inject({ method: 'POST', url: `${url}/seen`, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126' } })).statusCode).toBe(204);
    const opened = await view(url);
    expect(opened.statements).toBeGreaterThan(1);
    expect(opened.res.body).not.toContain('data-seen=');

    // a new version of the form, in the same millisecond (the test clock stands still)
    await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: steppedForm({ name: 'Term feedback, revised' }) });
    const revised = await view(url);
    expect(revised.res.body).toContain('<title>Term feedback, revised</title>');

    // the company's name and accent
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, name: 'Renamed School', patch: { brandColor: '#0f766e' } });
    const rebranded = await view(url);
    expect(rebranded.res.body).toContain('<span>Renamed School</span>');
    expect(rebranded.res.body).toContain('<style>:root{--accent:#0f766e}</style>');
    const kept = await view(url);
    expect(kept.statements).toBe(1);
    expect(kept.res.headers['content-security-policy']).toBe(rebranded.res.headers['content-security-policy']);

    const answers = { [q('campus')]: option('campus', 'north'), [q('attended')]: true, [q('overall')]: 4 };
    expect((await t.app.inject({ method: 'POST', url: `/r/v1/invites/${invite.token}/submit`, payload: { answers } })).statusCode).toBe(201);
    const answered = await view(url);
    expect(answered.res.statusCode).toBe(200);
    expect(answered.res.body).toContain('already');
    expect(answered.res.body).not.toContain('id="quorum-form"');
  });

  it('is refused at once when the invite is revoked, expires or the form closes', async () => {
    const { company, token } = await t.tenant();
    const { form } = await createSteppedForm(t, company.id);
    const revoked = await createInvite(t, token, form.id);
    const expiresAt = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const expiring = await createInvite(t, token, form.id, { name: 'Bo', email: 'bo@school.test', expiresAt });
    for (const invite of [revoked, expiring]) {
      await view(`/i/${invite.token}`);
      expect((await view(`/i/${invite.token}`)).statements).toBe(1);
    }

    expect((await t.post(token, `/v1/invites/${revoked.id}/revoke`)).statusCode).toBe(200);
    expect((await view(`/i/${revoked.token}`)).res.statusCode).toBe(410);

    // expired by the clock alone: no row changed
    t.clock.advance(60_000);
    expect((await view(`/i/${expiring.token}`)).res.statusCode).toBe(410);

    const open = await createInvite(t, token, form.id, { name: 'Cy', email: 'cy@school.test' });
    await view(`/i/${open.token}`);
    const closesAt = new Date(t.clock.now().getTime() + 60_000).toISOString();
    await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: steppedForm({ settings: { isPublic: true, language: 'en', closesAt } }) });
    expect((await view(`/i/${open.token}`)).res.statusCode).toBe(200);
    expect((await view(`/i/${open.token}`)).statements).toBe(1);
    t.clock.advance(60_000);
    expect((await view(`/i/${open.token}`)).res.statusCode).toBe(410);
  });

  it('keeps a page per language and address: ?lang= sets its cookie on every response, the cookie and Accept-Language pick the same page', async () => {
    const { company, token } = await t.tenant();
    const { form } = await createSteppedForm(t, company.id, { translations: STEPPED_TRANSLATIONS, thankYou: 'Thanks!' });
    const url = `/i/${(await createInvite(t, token, form.id)).token}`;

    const english = await view(url);
    expect(english.res.body).toContain('<html lang="en">');
    for (let round = 0; round < 2; round++) {
      const asked = await view(`${url}?lang=pt-BR`);
      expect(asked.res.body).toContain('<html lang="pt-BR">');
      expect(asked.res.body).toContain(`href="${url}?lang=en"`);
      expect(String(asked.res.headers['set-cookie'])).toContain('quorum_lang=pt-BR');
      if (round > 0) expect(asked.statements).toBe(1);
    }
    const cookie = cookiesOf(await t.app.inject({ url: `${url}?lang=pt-BR` }));
    const remembered = await view(url, { cookie });
    expect(remembered.res.body).toContain('<html lang="pt-BR">');
    expect(remembered.res.headers['set-cookie']).toBeUndefined();
    // the same language at the plain address: the page the cookie drew serves Accept-Language too
    const byBrowser = await view(url, { 'accept-language': 'pt-BR,pt;q=0.9' });
    expect(byBrowser.statements).toBe(1);
    expect(byBrowser.res.body).toBe(remembered.res.body);
    expect(byBrowser.res.headers['set-cookie']).toBeUndefined();
    const plain = await view(url);
    expect(plain.statements).toBe(1);
    expect(plain.res.body).toBe(english.res.body);
  });
});

describe('PageCache', () => {
  const kept = { offer: { language: 'en', offered: [], companyLocale: null }, accent: undefined, validUntil: Infinity };
  const page = (kb: number) => 'x'.repeat(kb * 1024);

  it('stays within its byte budget, the least recently used invite going first', () => {
    const cache = new PageCache(40 * 1024);
    cache.keep('a', 'v1', kept, variantKey('en', '/i/a'), page(15));
    cache.keep('b', 'v1', kept, variantKey('en', '/i/b'), page(15));
    expect(cache.find('a', 'v1', 0)).not.toBeNull(); // a is now the most recent
    cache.keep('c', 'v1', kept, variantKey('en', '/i/c'), page(15));
    expect(cache.bytes).toBeLessThanOrEqual(40 * 1024);
    expect(cache.find('b', 'v1', 0)).toBeNull();
    expect(cache.find('a', 'v1', 0)?.page(variantKey('en', '/i/a'))).toHaveLength(15 * 1024);
    expect(cache.find('c', 'v1', 0)).not.toBeNull();
  });

  it('drops an invite of another version or past its validity, and bounds the addresses of one invite', () => {
    const cache = new PageCache(1024 * 1024);
    cache.keep('a', 'v1', { ...kept, validUntil: 1000 }, variantKey('en', '/i/a'), page(1));
    expect(cache.find('a', 'v1', 999)).not.toBeNull();
    expect(cache.find('a', 'v1', 1000)).toBeNull();
    expect(cache.bytes).toBe(0);
    cache.keep('a', 'v1', kept, variantKey('en', '/i/a'), page(1));
    expect(cache.find('a', 'v2', 0)).toBeNull();
    expect(cache.bytes).toBe(0);
    for (let i = 0; i < 20; i++) cache.keep('a', 'v2', kept, variantKey('en', `/i/a?x=${i}`), page(1));
    const found = cache.find('a', 'v2', 0)!;
    expect(found.page(variantKey('en', '/i/a?x=0'))).toBeUndefined();
    expect(found.page(variantKey('en', '/i/a?x=19'))).toBeDefined();
    expect(cache.bytes).toBeLessThan(10 * 1024 + 10 * 300);
  });
});
