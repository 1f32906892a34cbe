import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { createInvite, createSteppedForm } from '../../../../test/respondent-pages.js';
import { scriptAsset } from './script-asset.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());

const get = (url: string, encoding?: string) => t.app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('respondent pages and their script, compressed by Accept-Encoding', () => {
  it('br preferred, gzip next, identity without the header: the same bytes each way, Vary set', async () => {
    const { company, token } = await t.tenant();
    const { form } = await createSteppedForm(t, company.id);
    const invite = await createInvite(t, token, form.id);
    const page = `/i/${invite.token}`;
    const script = (await scriptAsset()).path;
    for (const url of [page, script]) {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(1024);

      const br = await get(url, 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      const gzip = await get(url, 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers['content-type']).toBe(plain.headers['content-type']);

      // The page carries a fresh submission token each time: compare the script's bytes exactly, the page's text.
      if (url === script) {
        expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
        expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
      } else {
        expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<html lang="en">');
        expect(gunzipSync(gzip.rawPayload).toString()).toContain('Step 1 of 3');
      }
    }
  });

  it('an encoding the server does not offer gets the identity body', async () => {
    const script = (await scriptAsset()).path;
    const res = await get(script, 'compress');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.payload).toBe((await scriptAsset()).body);
  });
});
