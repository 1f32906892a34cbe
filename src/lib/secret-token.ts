import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The one way a secret token is minted and stored (sessions, one-time links, member invitations,
 * API keys): 256 random bits, only their SHA-256 kept.
 */

/** 32 random bytes, base64url (43 characters): cookie values, link and invitation tokens. */
export function mintSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 is enough for 256 random bits: nothing to brute-force, nothing to salt. */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const candidate = hashSecret(secret);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}

/** A token as mintSecret() makes it: 43 base64url characters (anything else is looked up as nothing). */
export const SECRET_RE = /^[A-Za-z0-9_-]{43}$/;
