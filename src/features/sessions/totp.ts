import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 defaults every authenticator app reads: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;
const DIGITS = 6;
/** One step either side absorbs a phone clock a little off without widening the guessing odds much. */
const WINDOW = 1;
const ISSUER = 'Quorum';

function totp(secretBase32: string, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: DIGITS, period: PERIOD });
}

/** A fresh 160-bit secret (RFC 4226's recommended length), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an app scans, and the same as an SVG QR code (no image request, no third party). */
export async function totpEnrolment(secretBase32: string, email: string): Promise<{ otpauthUri: string; qrSvg: string }> {
  const otpauthUri = totp(secretBase32, email).toString();
  const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUri, qrSvg };
}

/**
 * The time step a code belongs to, or null when it matches none within the window. Callers keep the
 * last accepted step and refuse a step at or before it, so a code (or an older one) is never accepted twice.
 */
export function totpStep(secretBase32: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const timestamp = now.getTime();
  const delta = totp(secretBase32).validate({ token, timestamp, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp }) + delta;
}

/** The code of a moment (tests and the browser test's "authenticator"). */
export function totpCode(secretBase32: string, at: Date): string {
  return totp(secretBase32).generate({ timestamp: at.getTime() });
}
