import { createHmac, timingSafeEqual } from 'node:crypto';
import { signPayload } from '../../lib/webhook-signature.js';

/** How far a signed callback's timestamp may be from our clock (replay window). */
const TOLERANCE_S = 5 * 60;

function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Standard Webhooks: webhook-id, webhook-timestamp and a v1 signature over "{id}.{timestamp}.{body}" with the callback secret. */
export function verifyStandardWebhook(secret: string, headers: Record<string, unknown>, body: string, now: Date): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > TOLERANCE_S) return false;
  const expected = signPayload({ id, timestamp: Number(timestamp), body }, [secret]);
  return signatures.split(' ').some((given) => equalText(given, expected));
}

/** X-Hub-Signature-256 of the WhatsApp Cloud API: sha256=<hex HMAC-SHA256 of the raw body with the app secret>. */
export function verifyHubSignature(appSecret: string, header: unknown, body: string): boolean {
  if (typeof header !== 'string') return false;
  return equalText(header, `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`);
}

/** Basic authentication whose password is the callback secret (Postmark's webhook credentials). */
export function verifyBasicAuth(secret: string, header: unknown): boolean {
  if (typeof header !== 'string' || !header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  return equalText(decoded.slice(decoded.indexOf(':') + 1), secret);
}
