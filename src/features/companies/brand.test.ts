import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf } from '../../../test/audit-records.js';
import { runQuorum } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { PIXEL_PNG } from '../../../test/images.js';
import { signInPanelUser, type PanelClient, type PanelSignIn } from '../../../test/panel.js';
import { contrastWithWhite } from './brand.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const patch = (client: PanelClient, session: PanelSignIn, payload: object) => client.request(session, { method: 'PATCH', url: '/panel/api/settings', payload });

describe('brand colour', () => {
  it('computes the WCAG contrast with white', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastWithWhite('#1d4ed8')).toBeGreaterThan(6);
    expect(contrastWithWhite('#767676')).toBeGreaterThanOrEqual(4.5); // the lightest grey that passes
    expect(contrastWithWhite('#777777')).toBeLessThan(4.5);
  });

  it('is saved when it reaches 4.5:1 on white, refused with a field error otherwise (spelling or contrast), cleared with null; audited', async () => {
    const member = await signInPanelUser(t, { permissions: ['settings'] });
    const low = await patch(member.client, member, { brandColor: '#ffcc00' });
    expect(low.statusCode).toBe(400);
    expect(low.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'brandColor', code: 'invalid_value', message: expect.stringMatching(/^contrast with white is 1\.\d+:1; WCAG AA asks at least 4\.5:1/) }] } });
    for (const brandColor of ['blue', '#12345', '#1234567', 'rgb(0,0,0)']) {
      const refused = await patch(member.client, member, { brandColor });
      expect(refused.statusCode, brandColor).toBe(400);
      expect(refused.json().error.details.fields).toEqual([expect.objectContaining({ path: 'brandColor', code: brandColor.length > 7 ? 'too_long' : 'invalid_format' })]);
    }
    expect((await member.client.get(member, '/panel/api/settings')).json().data.settings.brandColor).toBeNull();
    const saved = await patch(member.client, member, { brandColor: '#0F766E' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.settings.brandColor).toBe('#0f766e');
    t.clock.advance(1000);
    expect((await patch(member.client, member, { brandColor: null })).json().data.settings.brandColor).toBeNull();
    expect((await auditOf(t, member.companyId!, 'settings.changed')).map((r) => (r.details as { changes: object }).changes)).toEqual([
      { brandColor: { from: null, to: '#0f766e' } },
      { brandColor: { from: '#0f766e', to: null } },
    ]);
  });
});

describe('company logo', () => {
  const put = (client: PanelClient, session: PanelSignIn, bytes: Buffer) => client.request(session, { method: 'PUT', url: '/panel/api/settings/logo', payload: { image: bytes.toString('base64') } });

  it('stores an uploaded PNG and serves it from Quorum under a content-addressed name, for its company only; removed, its URL is gone', async () => {
    const member = await signInPanelUser(t, { permissions: ['settings'] });
    const companyId = member.companyId!;
    const res = await put(member.client, member, PIXEL_PNG);
    expect(res.statusCode, res.body).toBe(200);
    const file = `${createHash('sha256').update(PIXEL_PNG).digest('hex')}.png`;
    expect(res.json().data.settings).toMatchObject({ logo: file, logoUrl: `/r/logos/${companyId}/${file}` });
    const served = await t.app.inject({ url: `/r/logos/${companyId}/${file}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PIXEL_PNG)).toBe(true);
    // Another company's id with the same name, or names that are no logo, find nothing (and never a 5xx).
    const other = await signInPanelUser(t, { permissions: ['settings'] });
    for (const url of [`/r/logos/${other.companyId}/${file}`, `/r/logos/not-a-uuid/${file}`, `/r/logos/${companyId}/..%2f..%2fetc`, `/r/logos/${companyId}/${'0'.repeat(64)}.png`]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
    expect(await auditOf(t, companyId, 'settings.changed')).toEqual([expect.objectContaining({ details: { section: 'logo', changes: { logo: { from: null, to: file } } } })]);

    const removed = await member.client.request(member, { method: 'DELETE', url: '/panel/api/settings/logo' });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.settings).toMatchObject({ logo: null, logoUrl: null });
    expect((await t.app.inject({ url: `/r/logos/${companyId}/${file}` })).statusCode).toBe(404);
  });

  it('refuses what is not a PNG, JPEG or WebP image of at most 100 KB, with a field error; needs the settings permission', async () => {
    const member = await signInPanelUser(t, { permissions: ['settings'] });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const bytes of [svg, Buffer.from('GIF89a....'), Buffer.concat([PIXEL_PNG, Buffer.alloc(100 * 1024)])]) {
      const refused = await put(member.client, member, bytes);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('VALIDATION_ERROR');
      expect(refused.json().error.details.fields).toEqual([expect.objectContaining({ path: expect.stringMatching(/logo|image/) })]);
    }
    expect((await member.client.get(member, '/panel/api/settings')).json().data.settings.logo).toBeNull();
    const reader = await signInPanelUser(t, { permissions: ['forms'] });
    expect((await put(reader.client, reader, PIXEL_PNG)).statusCode).toBe(403);
  });

  it('the operator CLI sets the colour and the logo from a file, and removes the logo with none', { timeout: 120_000 }, async () => {
    const owner = await signInPanelUser(t, { owner: true });
    const { rows } = await t.ctx.pool.query('SELECT slug FROM companies WHERE id = $1', [owner.companyId]);
    const dir = mkdtempSync(join(tmpdir(), 'quorum-logo-'));
    writeFileSync(join(dir, 'logo.png'), PIXEL_PNG);
    const env = { DATABASE_URL: t.databaseUrl, QUORUM_DATA_DIR: dir };
    const set = await runQuorum(['--json', 'company', 'set', '--company', rows[0].slug, '--brand-color', '#0f766e', '--logo', join(dir, 'logo.png')], env);
    expect(set.code, set.stderr).toBe(0);
    expect((await owner.client.get(owner, '/panel/api/settings')).json().data.settings).toMatchObject({ brandColor: '#0f766e', logo: expect.stringMatching(/\.png$/) });
    const low = await runQuorum(['company', 'set', '--company', rows[0].slug, '--brand-color', '#ffcc00'], env);
    expect(low.code).not.toBe(0);
    expect(low.stderr).toContain('brandColor');
    const removed = await runQuorum(['--json', 'company', 'set', '--company', rows[0].slug, '--logo', 'none'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await owner.client.get(owner, '/panel/api/settings')).json().data.settings).toMatchObject({ brandColor: '#0f766e', logo: null });
  });
});
