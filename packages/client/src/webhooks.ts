import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './schema.js';

type Payload<T> = T extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** Every event the service may POST, discriminated by `type` (the OpenAPI document's webhooks). */
export type WebhookEvent = { [K in keyof webhooks]: Payload<webhooks[K]['post']> }[keyof webhooks];

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * Verifies a delivery the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature:
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, several while a secret rotates) against
 * the raw body as received, and returns the typed event. Throws WebhookVerificationError on a
 * missing header, a timestamp more than `toleranceSeconds` (default 300) away, or no matching signature.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  const seconds = Number(timestamp);
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError('webhook-timestamp is too far from now');
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no webhook-signature matches the secret');
  return JSON.parse(body) as WebhookEvent;
}
