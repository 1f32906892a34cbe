import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { clientAddress, everyTypeForm, invite, keyedForm, PNG, respondentClient } from '../../../test/respondent.js';
import { follow } from '../../../test/respondent-pages.js';

/** Upload limits with small figures: per address and per form per hour, and the company's storage quota. */
let t: TestApp;
const limits = { filesPerAddressPerHour: 3, bytesPerAddressPerHour: 3000, filesPerFormPerHour: 4, bytesPerFormPerHour: 1_000_000, bytesPerCompany: 5000 };
beforeAll(async () => {
  t = await startTestApp({ config: { uploadLimits: limits } });
});
afterAll(async () => t?.close());

const png = (size: number) => ({ name: 'a.png', mime: 'image/png', data: Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(size - 8, 1)]) });

async function publicLink() {
  const tenant = await t.tenant();
  const f = await everyTypeForm(t, tenant.company.id);
  const url = `/r/v1/forms/${tenant.company.slug}/${f.form.slug}`;
  /** An upload from a client address of its own (or the one given), with a fresh page's token. */
  const upload = async (size: number, client = respondentClient(t)) => {
    const { submissionToken } = (await client.get(url)).json().data;
    return client.upload(`${url}/files?submissionToken=${submissionToken}`, png(size));
  };
  return { tenant, f, url, upload };
}

async function storedFiles(companyId: string) {
  const { rows } = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM respondent_uploads WHERE company_id = ${companyId}`);
  return rows[0].n;
}

function expectRefusal(res: { statusCode: number; body: string; json(): any; headers: Record<string, unknown> }, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, error: { code } });
  expect(res.headers['x-request-id']).toBeTruthy();
}

describe('upload limits', () => {
  it('files per address per hour: the fourth is 429 RATE_LIMITED with retry-after until the first leaves the hour', async () => {
    const { tenant, upload } = await publicLink();
    const client = respondentClient(t);
    for (let i = 0; i < 3; i++) expect((await upload(100, client)).statusCode).toBe(201);
    t.clock.advance(10 * 60_000);
    const refused = await upload(100, client);
    expectRefusal(refused, 429, 'RATE_LIMITED');
    expect(refused.json().error.details).toEqual({ scope: 'address' });
    expect(refused.headers['retry-after']).toBe(String(50 * 60));
    expect((await upload(100)).statusCode).toBe(201); // another address is not held back
    t.clock.advance(50 * 60_000);
    expect((await upload(100, client)).statusCode).toBe(201);
    expect(await storedFiles(tenant.company.id)).toBe(5);
  });

  it('bytes per address per hour, also through a personal link', async () => {
    const { tenant, f, upload } = await publicLink();
    const client = respondentClient(t);
    expect((await upload(2000, client)).statusCode).toBe(201);
    const inv = await invite(t, tenant.company.id, f.form.id);
    expectRefusal(await client.upload(`/r/v1/invites/${inv.token}/files`, png(1500)), 429, 'RATE_LIMITED');
    expect((await client.upload(`/r/v1/invites/${inv.token}/files`, png(900))).statusCode).toBe(201);
  });

  it('files per form per hour, whatever the address', async () => {
    const { upload } = await publicLink();
    for (let i = 0; i < 4; i++) expect((await upload(100)).statusCode).toBe(201);
    const refused = await upload(100);
    expectRefusal(refused, 429, 'RATE_LIMITED');
    expect(refused.json().error.details).toEqual({ scope: 'form' });
  });

  it("the company's storage quota: 413 PAYLOAD_TOO_LARGE, and nothing written", async () => {
    const { tenant, upload } = await publicLink();
    expect((await upload(2400)).statusCode).toBe(201);
    expect((await upload(2400)).statusCode).toBe(201);
    const full = await upload(300);
    expectRefusal(full, 413, 'PAYLOAD_TOO_LARGE');
    expect(full.json().error.details).toEqual({ quotaBytes: 5000 });
    expect(await storedFiles(tenant.company.id)).toBe(2);
    expect(await readdir(join(t.ctx.config.dataDir, 'uploads', tenant.company.id))).toHaveLength(2);
  });

  it('concurrent uploads from one address cannot pass the limit together', async () => {
    const { tenant, url } = await publicLink();
    const client = respondentClient(t);
    const tokens = await Promise.all(Array.from({ length: 6 }, async () => (await client.get(url)).json().data.submissionToken as string));
    const results = await Promise.all(tokens.map((token) => client.upload(`${url}/files?submissionToken=${token}`, png(100))));
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    expect(await storedFiles(tenant.company.id)).toBe(3);
  });

  it('a page without JavaScript shows the refusal on the file question, with the limit\'s status and retry-after', async () => {
    const tenant = await t.tenant();
    const f = await keyedForm(t, tenant.company.id, {
      slug: 'papers',
      name: 'Papers',
      settings: { isPublic: true, language: 'en' },
      sections: [{ key: 's', name: 'Your papers', questions: [{ key: 'doc', name: 'A document', type: 'FILE' }] }],
    });
    const path = `/f/${tenant.company.slug}/papers`;
    const remoteAddress = clientAddress();
    const send = async () => {
      const page = await t.app.inject({ url: path, remoteAddress });
      const token = /name="_token" value="([^"]+)"/.exec(page.body)![1];
      const boundary = 'pageb0undary';
      const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const head = `${field('_token', token)}${field('_section', '0')}${field('_shown', f.q.doc)}${field('_action', 'next')}--${boundary}\r\nContent-Disposition: form-data; name="q.${f.q.doc}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
      const payload = Buffer.concat([Buffer.from(head), png(100).data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      return t.app.inject({ method: 'POST', url: path, remoteAddress, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    };
    for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(303);
    const refused = await follow(t, await send());
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.body).toContain(`<p class="err" id="e-${f.q.doc}">Too many files were sent from here; please try again later.</p>`);
    expect(await storedFiles(tenant.company.id)).toBe(3);
  });
});
