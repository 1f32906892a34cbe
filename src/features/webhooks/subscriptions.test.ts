import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/harness.js';
import { deliveryRows, emit, subscribe, verifiesWith, webhookTestbed, type ReceivedWebhook, type Receiver } from '../../../test/webhooks.js';
import { createSubscription } from './create-subscription.js';
import type { DeliveryLoop } from './deliver-loop.js';
import { deleteSubscription } from './delete-subscription.js';
import { disableSubscription } from './disable-subscription.js';
import { enableSubscription } from './enable-subscription.js';
import { listSubscriptions } from './list-subscriptions.js';
import { ROTATION_OVERLAP_MS, rotateSubscriptionSecret } from './rotate-subscription-secret.js';
import { secretBox } from '../../lib/secret-box.js';

const bed = webhookTestbed();
let t: TestApp;
let receiver: Receiver;
let loop: DeliveryLoop;
beforeAll(() => ({ t, receiver, loop } = bed));

async function sealedColumns(id: string) {
  return (await t.ctx.pool.query('SELECT secret_sealed, previous_secret_sealed FROM webhook_subscriptions WHERE id = $1', [id])).rows[0];
}

describe('creating a subscription', () => {
  it('returns the whsec_ secret once and stores it only sealed', async () => {
    const { company } = await t.tenant();
    const { subscription, secret } = await createSubscription(t.ctx.db, t.ctx, {
      companyId: company.id,
      url: 'https://hooks.example.com/quorum',
      types: ['invite.sent', 'invite.sent', 'response.created'],
      description: 'CRM sync',
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(subscription).toEqual({
      id: expect.any(String),
      companyId: company.id,
      url: 'https://hooks.example.com/quorum',
      types: ['invite.sent', 'response.created'],
      enabled: true,
      description: 'CRM sync',
      failingSince: null,
      disabledAt: null,
      disabledReason: null,
      previousSecretExpiresAt: null,
      createdAt: t.clock.now().toISOString(),
    });
    const { secret_sealed: sealed } = await sealedColumns(subscription.id);
    expect(sealed.toString('latin1')).not.toContain(secret);
    expect(sealed.toString('latin1')).not.toContain(Buffer.from(secret.slice(6), 'base64').toString('latin1'));
    expect(secretBox(t.ctx.config.secretKey).open(sealed, subscription.id)).toBe(secret);
    expect(JSON.stringify(await listSubscriptions(t.ctx.db, t.ctx, { companyId: company.id }))).not.toContain(secret);
  });

  it('defaults to every type', async () => {
    const { company } = await t.tenant();
    const { subscription } = await createSubscription(t.ctx.db, t.ctx, { companyId: company.id, url: 'https://hooks.example.com/' });
    expect(subscription.types).toEqual(['*']);
  });

  it('refuses a bad URL, unknown types, "*" mixed with types, and a long description, naming each field', async () => {
    const { company } = await t.tenant();
    const attempt = createSubscription(t.ctx.db, t.ctx, {
      companyId: company.id,
      url: 'ftp://files.example.com/',
      types: ['form.deleted', 'ping'],
      description: 'x'.repeat(501),
    });
    await expect(attempt).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: {
        fields: [
          { path: 'url', code: 'invalid_value', message: expect.any(String) },
          { path: 'types[0]', code: 'invalid_value', message: expect.any(String) },
          { path: 'description', code: 'too_long', message: expect.any(String) },
        ],
      },
    });
    await expect(createSubscription(t.ctx.db, t.ctx, { companyId: company.id, url: 'https://a.example/', types: ['*', 'ping'] })).rejects.toMatchObject({
      details: { fields: [{ path: 'types', code: 'invalid_value' }] },
    });
    await expect(createSubscription(t.ctx.db, t.ctx, { companyId: company.id, url: 'https://u:p@a.example/', types: [] })).rejects.toMatchObject({
      details: { fields: [{ path: 'url', code: 'invalid_value' }, { path: 'types', code: 'required' }] },
    });
  });
});

describe('rotating the secret', () => {
  it('signs with old and new for 24 h, then with the new one only', async () => {
    const { company } = await t.tenant();
    const { subscription, secret: oldSecret } = await subscribe(t, company.id, receiver.url());
    const { secret: newSecret, subscription: rotated } = await rotateSubscriptionSecret(t.ctx.db, t.ctx, { companyId: company.id, id: subscription.id });
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.previousSecretExpiresAt).toBe(new Date(t.clock.now().getTime() + ROTATION_OVERLAP_MS).toISOString());

    const signatures = (request: ReceivedWebhook) => String(request.headers['webhook-signature']).split(' ');
    const expectBothVerify = () => {
      const request = receiver.received.at(-1)!;
      expect(signatures(request)).toHaveLength(2);
      expect(verifiesWith(oldSecret, request, t.clock)).toBe(true);
      expect(verifiesWith(newSecret, request, t.clock)).toBe(true);
    };
    await emit(t, company.id, 'ping', { message: 'during the overlap' });
    await loop.drain();
    expectBothVerify();
    t.clock.advance(ROTATION_OVERLAP_MS - 1);
    await emit(t, company.id, 'ping', { message: 'end of the overlap' });
    await loop.drain();
    expectBothVerify();

    t.clock.advance(1);
    await emit(t, company.id, 'ping', { message: 'after the overlap' });
    await loop.drain();
    const last = receiver.received[2];
    expect(signatures(last)).toHaveLength(1);
    expect(verifiesWith(newSecret, last, t.clock)).toBe(true);
    expect(verifiesWith(oldSecret, last, t.clock)).toBe(false);
  });

  it("is 404 for another company's subscription and leaves it untouched", async () => {
    const owner = await t.tenant();
    const intruder = await t.tenant();
    const { subscription } = await subscribe(t, owner.company.id, 'https://a.example/');
    const before = await sealedColumns(subscription.id);
    await expect(rotateSubscriptionSecret(t.ctx.db, t.ctx, { companyId: intruder.company.id, id: subscription.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(disableSubscription(t.ctx.db, t.ctx, { companyId: intruder.company.id, id: subscription.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(deleteSubscription(t.ctx.db, t.ctx, { companyId: intruder.company.id, id: subscription.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(enableSubscription(t.ctx.db, t.ctx, { companyId: owner.company.id, id: 'not-a-uuid' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await sealedColumns(subscription.id)).toEqual(before);
  });
});

describe('disabling and enabling', () => {
  it('holds pending deliveries while disabled and sends them once enabled, with a fresh failure streak', async () => {
    const { company } = await t.tenant();
    const { subscription } = await subscribe(t, company.id, receiver.url());
    await emit(t, company.id, 'ping', { message: 'queued before disabling' });
    const disabled = await disableSubscription(t.ctx.db, t.ctx, { companyId: company.id, id: subscription.id });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'operator', disabledAt: t.clock.now().toISOString() });
    await emit(t, company.id, 'ping', { message: 'not fanned out' });
    await loop.drain();
    expect(receiver.received).toHaveLength(0);

    await t.ctx.pool.query('UPDATE webhook_subscriptions SET failing_since = $2 WHERE id = $1', [subscription.id, new Date(0)]);
    const enabled = await enableSubscription(t.ctx.db, t.ctx, { companyId: company.id, id: subscription.id });
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    await loop.drain();
    expect(receiver.received.map((r) => JSON.parse(r.body).data.message)).toEqual(['queued before disabling']);
  });

  it('keeps the first reason when an operator disables an auto-disabled subscription', async () => {
    const { company } = await t.tenant();
    const { subscription } = await subscribe(t, company.id, 'https://a.example/');
    await disableSubscription(t.ctx.db, t.ctx, { companyId: company.id, id: subscription.id, reason: 'gone' });
    t.clock.advance(1000);
    expect(await disableSubscription(t.ctx.db, t.ctx, { companyId: company.id, id: subscription.id })).toMatchObject({ disabledReason: 'gone' });
  });
});

describe('deleting', () => {
  it('removes the subscription with its deliveries and their log', async () => {
    const { company } = await t.tenant();
    const { subscription } = await subscribe(t, company.id, receiver.url());
    await emit(t, company.id, 'ping', { message: 'logged' });
    await loop.drain();
    expect(await deliveryRows(t, company.id)).toHaveLength(1);
    await deleteSubscription(t.ctx.db, t.ctx, { companyId: company.id, id: subscription.id });
    expect(await deliveryRows(t, company.id)).toEqual([]);
    expect((await t.ctx.pool.query('SELECT count(*)::int AS n FROM webhook_attempts WHERE company_id = $1', [company.id])).rows[0].n).toBe(0);
    expect(await listSubscriptions(t.ctx.db, t.ctx, { companyId: company.id })).toEqual([]);
  });
});

describe('the sealed secret', () => {
  it('does not open under another subscription id or another SECRET_KEY, nor when altered', () => {
    const box = secretBox(t.ctx.config.secretKey);
    const sealed = box.seal('whsec_c2VjcmV0', 'sub-a');
    expect(box.open(sealed, 'sub-a')).toBe('whsec_c2VjcmV0');
    expect(() => box.open(sealed, 'sub-b')).toThrow();
    expect(() => secretBox('another-secret-key-that-is-long-enough').open(sealed, 'sub-a')).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] ^= 1;
    expect(() => box.open(altered, 'sub-a')).toThrow();
  });
});
