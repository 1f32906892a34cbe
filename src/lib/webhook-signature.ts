import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks (contract decisions, Events): secrets are `whsec_` + base64 of the key bytes. */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export const WEBHOOK_USER_AGENT = 'Quorum-Webhooks/1';

export interface SignedMessage {
  /** The event id; the same on every retry so receivers can deduplicate. */
  id: string;
  /** Unix seconds. */
  timestamp: number;
  /** The exact bytes sent as the body; a re-serialised body would not verify. */
  body: string;
}

export interface WebhookHeaders {
  'content-type': 'application/json';
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'user-agent': string;
}

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretKey(secret: string): Buffer {
  const key = secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : null;
  // Signing with an empty or malformed key would send a signature no receiver can check.
  if (!key || key.length === 0) throw new Error('A webhook secret must be "whsec_" followed by base64 key bytes.');
  return key;
}

function signOne({ id, timestamp, body }: SignedMessage, secret: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The `webhook-signature` header value. While a secret is rotated every active secret signs,
 * space-separated, so the receiver verifies with whichever one it holds.
 */
export function signPayload(message: SignedMessage, secrets: string[]): string {
  if (secrets.length === 0) throw new Error('At least one webhook secret is needed to sign.');
  return secrets.map((secret) => signOne(message, secret)).join(' ');
}

export function webhookHeaders(eventId: string, body: string, secrets: string[], now: Date): WebhookHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signPayload({ id: eventId, timestamp, body }, secrets),
    'user-agent': WEBHOOK_USER_AGENT,
  };
}
