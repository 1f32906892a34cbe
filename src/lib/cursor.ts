import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.js';
import { canonicalJson } from './canonical-json.js';

/**
 * Opaque, authenticated cursors: base64url(JSON) + "." + base64url(HMAC-SHA256). A cursor binds
 * the key position, the company and the filter set, so a tampered cursor, another company's
 * cursor or one reused with other filters is refused with INVALID_CURSOR.
 */
export interface CursorBinding {
  companyId: string;
  /** Route and filters in a canonical form: anything that changes the result set. */
  scope: Record<string, unknown>;
}

interface Envelope {
  c: string;
  s: string;
  p: unknown;
}

const MAC_BYTES = 16;

function scopeHash(scope: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(scope)).digest('base64url').slice(0, 22);
}

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest().subarray(0, MAC_BYTES);
}

export function encodeCursor<P>(secret: string, binding: CursorBinding, position: P): string {
  const envelope: Envelope = { c: binding.companyId, s: scopeHash(binding.scope), p: position };
  const body = Buffer.from(JSON.stringify(envelope)).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

function invalidCursor(): ApiError {
  return new ApiError('INVALID_CURSOR', 'The cursor is not valid for this request. Restart the scan without a cursor.');
}

/** The position carried by a cursor issued for this company and filter set, or INVALID_CURSOR. */
export function decodeCursor<P>(secret: string, binding: CursorBinding, cursor: string, isPosition: (p: unknown) => p is P): P {
  const [body, tag, extra] = cursor.split('.');
  if (!body || !tag || extra !== undefined || cursor.length > 2048) throw invalidCursor();
  // Compared as text: decoding would accept several spellings of one tag (the unused low bits of
  // its last character), so a cursor with a changed character could still pass.
  const given = Buffer.from(tag);
  const expected = Buffer.from(mac(secret, body).toString('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
  let envelope: Envelope;
  try {
    envelope = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Envelope;
  } catch {
    throw invalidCursor();
  }
  if (envelope.c !== binding.companyId || envelope.s !== scopeHash(binding.scope) || !isPosition(envelope.p)) throw invalidCursor();
  return envelope.p;
}
