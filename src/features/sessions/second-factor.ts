import { sql } from 'drizzle-orm';
import type { Config } from '../../platform/config.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError } from '../../lib/errors.js';
import { secretBox } from '../../lib/secret-box.js';
import { hashRecoveryCode, looksLikeRecoveryCode } from './recovery-codes.js';
import { totpStep } from './totp.js';

export type SecondFactorDeps = { clock: Clock; config: Pick<Config, 'secretKey'> };

/** A TOTP secret is sealed bound to its user: copied onto another account's row it does not open. */
export const totpSecretContext = (userId: string) => `totp:${userId}`;

export function sealTotpSecret(deps: SecondFactorDeps, userId: string, secret: string): Buffer {
  return secretBox(deps.config.secretKey).seal(secret, totpSecretContext(userId));
}

export function openTotpSecret(deps: SecondFactorDeps, userId: string, sealed: Buffer): string {
  return secretBox(deps.config.secretKey).open(sealed, totpSecretContext(userId));
}

export const SECOND_FACTOR_REFUSED = 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.';

/**
 * Accepts a TOTP code of the enabled secret, advancing the last accepted step in the same statement
 * (a code, or an older one, is accepted once); or a recovery code, spent in the same statement.
 * Run it in the transaction of what the code unlocks, so a failure later undoes the spending.
 */
export async function spendSecondFactorCode(db: DbOrTx, deps: SecondFactorDeps, input: { userId: string; code: string; sealed: Buffer }): Promise<boolean> {
  const now = deps.clock.now();
  const step = totpStep(openTotpSecret(deps, input.userId, input.sealed), input.code, now);
  if (step !== null) {
    const { rows } = await db.execute(sql`
      UPDATE users SET totp_last_step = ${step} WHERE id = ${input.userId} AND (totp_last_step IS NULL OR totp_last_step < ${step}) RETURNING 1`);
    return rows.length > 0;
  }
  if (!looksLikeRecoveryCode(input.code)) return false;
  const { rows } = await db.execute(sql`
    UPDATE user_recovery_codes SET used_at = ${now} WHERE user_id = ${input.userId} AND code_hash = ${hashRecoveryCode(input.code)} AND used_at IS NULL RETURNING 1`);
  return rows.length > 0;
}

/**
 * The second-factor step of a sign-in (or of accepting an invitation with an existing account): a user
 * without one passes; with one, a missing or wrong code is 401 with details { secondFactor: true },
 * which tells the page to ask for the code.
 */
export async function checkSecondFactor(db: DbOrTx, deps: SecondFactorDeps, input: { userId: string; code?: string | null }): Promise<void> {
  const { rows } = await db.execute<{ totp_secret_sealed: Buffer | null }>(sql`SELECT totp_secret_sealed FROM users WHERE id = ${input.userId}`);
  const sealed = rows[0]?.totp_secret_sealed ?? null;
  if (sealed === null) return;
  if (!input.code || !(await spendSecondFactorCode(db, deps, { userId: input.userId, code: input.code, sealed }))) {
    throw new ApiError('UNAUTHORIZED', SECOND_FACTOR_REFUSED, { secondFactor: true });
  }
}
