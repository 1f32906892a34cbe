import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSubscription } from './create-subscription.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const guarded = () => ({ ...t.ctx, config: { ...t.ctx.config, webhookAllowPrivateTargets: false } });

describe('a webhook target that is an IP literal', () => {
  const forbidden = [
    'http://127.0.0.1/hook', 'http://10.1.2.3/', 'https://169.254.169.254/latest/meta-data', 'http://[::1]:8080/', 'http://[::ffff:192.168.0.1]/',
    'http://0x7f.0.0.1/', 'http://2130706433/', 'http://0/', 'http://[fd00::1]/', 'http://100.100.100.200/',
  ];

  it('in a forbidden range is refused at creation with VALIDATION_ERROR forbidden_target', async () => {
    const { company } = await t.tenant();
    for (const url of forbidden) {
      await expect(createSubscription(t.ctx.db, guarded(), { companyId: company.id, url }), url).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { fields: [{ path: 'url', code: 'forbidden_target', message: expect.any(String) }] },
      });
    }
    const { rows } = await t.ctx.pool.query('SELECT count(*)::int AS n FROM webhook_subscriptions WHERE company_id = $1', [company.id]);
    expect(rows[0].n).toBe(0);
  });

  it('is accepted when public, when a name (checked at connect time), or when WEBHOOK_ALLOW_PRIVATE_TARGETS is set', async () => {
    const { company } = await t.tenant();
    for (const url of ['https://93.184.215.14/hook', 'https://[2606:4700::1111]/', 'https://localhost.example/']) {
      await expect(createSubscription(t.ctx.db, guarded(), { companyId: company.id, url })).resolves.toMatchObject({ subscription: { url } });
    }
    await expect(createSubscription(t.ctx.db, t.ctx, { companyId: company.id, url: 'http://127.0.0.1:9/' })).resolves.toBeTruthy();
  });
});
