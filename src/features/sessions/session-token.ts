import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: the cookie value and one-time link tokens. */
export function mintSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 is enough for 256 random bits: nothing to brute-force, nothing to salt. */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** A cookie or link token as minted: 43 base64url characters (anything else is looked up as nothing). */
export const SECRET_RE = /^[A-Za-z0-9_-]{43}$/;
