import { createHash, randomInt } from 'node:crypto';

/** Ten one-time codes, shown once at enrolment; only their SHA-256 is kept. */
export const RECOVERY_CODE_COUNT = 10;
// No 0/O/1/I/L: read off paper and typed back without confusion. 10 of 31 symbols ≈ 49 bits, enough
// for a code that also needs the password and is refused after the sign-in budget.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 10;

/** xxxxx-xxxxx, as shown to the person. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Spaces, dashes and case are forgiven, so a code typed back as read still matches. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

export function looksLikeRecoveryCode(code: string): boolean {
  return normalizeRecoveryCode(code).length === LENGTH && [...normalizeRecoveryCode(code)].every((c) => ALPHABET.includes(c));
}

export function hashRecoveryCode(code: string): Buffer {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest();
}
