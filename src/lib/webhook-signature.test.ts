import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signPayload, webhookHeaders } from './webhook-signature.js';

const body = JSON.stringify({ id: 'evt_1', type: 'ping', version: 1, data: { message: 'hello' } });

describe('generateWebhookSecret', () => {
  it('is whsec_ followed by base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe('signPayload', () => {
  it('matches the Standard Webhooks published test vector', () => {
    const signature = signPayload(
      { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' },
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('agrees with the reference implementation', () => {
    const secret = generateWebhookSecret();
    const ours = signPayload({ id: 'evt_2', timestamp: 1_700_000_000, body }, [secret]);
    expect(ours).toBe(new Webhook(secret).sign('evt_2', new Date(1_700_000_000_000), body));
  });

  it('refuses to sign without a secret or with a malformed one', () => {
    const message = { id: 'evt_3', timestamp: 1, body };
    expect(() => signPayload(message, [])).toThrow();
    expect(() => signPayload(message, ['not-a-secret'])).toThrow();
    expect(() => signPayload(message, ['whsec_'])).toThrow();
  });
});

describe('webhookHeaders', () => {
  it('produces headers the reference verifier accepts', () => {
    const secret = generateWebhookSecret();
    const now = new Date();
    const headers = webhookHeaders('evt_4', body, [secret], now);
    expect(headers).toEqual({
      'content-type': 'application/json',
      'webhook-id': 'evt_4',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
      'user-agent': 'Quorum-Webhooks/1',
    });
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('during rotation signs with both secrets, and each secret alone verifies', () => {
    const oldSecret = generateWebhookSecret();
    const newSecret = generateWebhookSecret();
    const headers = webhookHeaders('evt_5', body, [oldSecret, newSecret], new Date());
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(newSecret).verify(body, { ...headers })).not.toThrow();
  });

  it('fails verification for another secret, a tampered body or another id', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders('evt_6', body, [secret], new Date());
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body.replace('hello', 'hullo'), { ...headers })).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_7' })).toThrow(
      WebhookVerificationError,
    );
  });
});
