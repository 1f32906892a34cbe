import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { createInvite, createSteppedForm } from '../../../../test/respondent-pages.js';
import { PIXEL_PNG } from '../../../../test/images.js';
import { setCompanyLogo } from '../../companies/index.js';
import { updateCompanySettings } from '../../companies/company-settings.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());

const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

describe("the company's logo and colour on its pages", () => {
  it('a header logo served by Quorum and the accent rule, allowed by its own CSP hash, on the public and personal links and their message pages', async () => {
    const { company, token } = await t.tenant();
    await updateCompanySettings(t.ctx.db, t.ctx, { companyId: company.id, patch: { brandColor: '#0f766e' } });
    const { file } = await setCompanyLogo(t.ctx.db, t.ctx, { companyId: company.id, bytes: PIXEL_PNG });
    const { form } = await createSteppedForm(t, company.id, { slug: 'branded', settings: { isPublic: true } });
    const invite = await createInvite(t, token, form.id);
    const logo = `/r/logos/${company.id}/${file}`;
    const accent = ':root{--accent:#0f766e}';
    for (const url of [`/f/${company.slug}/branded`, `/i/${invite.token}`, `/f/${company.slug}/branded/thanks`]) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain(`<header><img src="${logo}" alt=""><span>${company.name}</span></header>`);
      expect(page.body, url).toContain(`<style>${accent}</style>`);
      const csp = page.headers['content-security-policy'] as string;
      expect(csp, url).toContain(hashOf(accent));
      expect(csp, url).toContain("img-src 'self'");
      expect(csp, url).not.toContain('unsafe-inline');
    }
    // the logo's own request is free of the address budget and is an image, nothing else
    const image = await t.app.inject({ url: logo });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('a company without them: no logo, no accent rule, one style hash', async () => {
    const { company } = await t.tenant();
    await createSteppedForm(t, company.id, { slug: 'plain', settings: { isPublic: true } });
    const page = await t.app.inject({ url: `/f/${company.slug}/plain` });
    expect(page.body).toContain(`<header><span>${company.name}</span></header>`);
    expect(page.body.match(/<style>/g)).toHaveLength(1);
    expect((page.headers['content-security-policy'] as string).match(/'sha256-/g)).toHaveLength(1);
  });
});
