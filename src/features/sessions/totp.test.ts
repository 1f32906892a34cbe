import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { newTotpSecret, totpCode, totpEnrolment, totpStep } from './totp.js';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes, RECOVERY_CODE_COUNT } from './recovery-codes.js';

const at = new Date('2026-03-02T09:00:10Z');

describe('TOTP', () => {
  it('accepts the current code and its neighbours, naming the step each belongs to', () => {
    const secret = newTotpSecret();
    const step = Math.floor(at.getTime() / 30_000);
    expect(totpStep(secret, totpCode(secret, at), at)).toBe(step);
    expect(totpStep(secret, totpCode(secret, new Date(at.getTime() - 30_000)), at)).toBe(step - 1);
    expect(totpStep(secret, totpCode(secret, new Date(at.getTime() + 30_000)), at)).toBe(step + 1);
  });

  it('refuses codes two steps away, a changed digit, or not six digits', () => {
    const secret = newTotpSecret();
    expect(totpStep(secret, totpCode(secret, new Date(at.getTime() - 90_000)), at)).toBeNull();
    const wrong = totpCode(secret, at).replace(/^./, (d) => String((Number(d) + 1) % 10));
    expect([totpCode(secret, new Date(at.getTime() - 30_000)), totpCode(secret, new Date(at.getTime() + 30_000))]).not.toContain(wrong);
    expect(totpStep(secret, wrong, at)).toBeNull();
    expect(totpStep(secret, '12345', at)).toBeNull();
    expect(totpStep(secret, 'abcdef', at)).toBeNull();
  });

  it('matches what an authenticator app computes from the enrolment URI', async () => {
    const secret = newTotpSecret();
    const { otpauthUri, qrSvg } = await totpEnrolment(secret, 'ana@example.org');
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Quorum:ana%40example\.org\?/);
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const app = new TOTP({ secret: Secret.fromBase32(new URL(otpauthUri).searchParams.get('secret')!) });
    expect(totpStep(secret, app.generate({ timestamp: at.getTime() }), at)).not.toBeNull();
  });
});

describe('recovery codes', () => {
  it('are ten distinct readable codes whose hash ignores case, spaces and dashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[2-9A-Z]{5}-[2-9A-Z]{5}$/);
    expect(hashRecoveryCode(codes[0].toLowerCase().replace('-', ' '))).toEqual(hashRecoveryCode(codes[0]));
    expect(looksLikeRecoveryCode(codes[0])).toBe(true);
    expect(looksLikeRecoveryCode('123456')).toBe(false);
  });
});
