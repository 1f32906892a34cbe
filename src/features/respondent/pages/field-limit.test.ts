import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { createInvite, createSteppedForm } from '../../../../test/respondent-pages.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

/** A multipart/form-data page POST of `count` fields, encoded by the platform's FormData as a browser would. */
async function postFields(url: string, count: number) {
  const data = new FormData();
  data.append('_section', '0');
  for (let i = 1; i < count; i++) data.append(`extra${i}`, 'x');
  const encoded = new Response(data);
  const payload = Buffer.from(await encoded.arrayBuffer());
  return t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': encoded.headers.get('content-type')! } });
}

describe('a multipart page POST over the field limit', () => {
  it('is 413 PAYLOAD_TOO_LARGE in the envelope past 500 fields, and stores nothing', async () => {
    const { company, token } = await t.tenant();
    const { form } = await createSteppedForm(t, company.id);
    const url = `/i/${(await createInvite(t, token, form.id)).token}`;
    expect((await postFields(url, 500)).statusCode).toBeLessThan(400);
    for (const count of [501, 5000]) {
      const refused = await postFields(url, count);
      expect(refused.statusCode).toBe(413);
      expect(refused.json()).toEqual({ success: false, error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String), details: null } });
      expect(refused.headers['x-request-id']).toBeTruthy();
    }
    const { rows } = await t.ctx.pool.query('SELECT 1 FROM responses WHERE company_id = $1', [company.id]);
    expect(rows).toEqual([]);
  });
});
