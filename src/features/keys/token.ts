import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../../lib/ids.js';

/** Token format (docs/contract.md, API keys): qk_<keyId 12 base62>_<secret 43 base62 ≈ 256 bits>. */
const TOKEN_RE = /^qk_([0-9A-Za-z]{12})_([0-9A-Za-z]{43})$/;

export interface MintedToken {
  token: string;
  keyId: string;
  secretHash: Buffer;
}

export function mintToken(): MintedToken {
  const keyId = randomBase62(12);
  const secret = randomBase62(43);
  return { token: `qk_${keyId}_${secret}`, keyId, secretHash: hashSecret(secret) };
}

export function parseToken(token: string): { keyId: string; secret: string } | null {
  const match = TOKEN_RE.exec(token);
  return match ? { keyId: match[1], secret: match[2] } : null;
}

/** SHA-256 is enough for a 256-bit random secret: nothing to brute-force, nothing to salt. */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const candidate = hashSecret(secret);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}
