import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { userRecoveryCodes } from '../../platform/db/schema.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { recordAudit } from '../audit/index.js';
import { auditActor, type AccountActor } from './account-actor.js';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { openTotpSecret, type SecondFactorDeps } from './second-factor.js';
import { totpStep } from './totp.js';

const wrongCode = () => validationError([fieldError('code', 'invalid_value', 'This code does not match: check the time on your phone and enter the current code.')]);

/**
 * Turns the second factor on once a code from the pending secret proves the app holds it, and
 * returns ten recovery codes, shown this once (only their hashes are kept).
 */
export async function confirmSecondFactor(db: DbOrTx, deps: SecondFactorDeps & { newId: IdGenerator }, input: { actor: AccountActor; code: string }): Promise<{ recoveryCodes: string[] }> {
  const { actor } = input;
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ totp_pending_sealed: Buffer | null }>(sql`
      SELECT totp_pending_sealed FROM users WHERE id = ${actor.userId} AND totp_secret_sealed IS NULL FOR UPDATE`);
    const pending = rows[0]?.totp_pending_sealed ?? null;
    if (pending === null) throw validationError([fieldError('code', 'invalid_value', 'Start the set-up again: there is no second factor waiting for confirmation.')]);
    const now = deps.clock.now();
    const step = totpStep(openTotpSecret(deps, actor.userId, pending), input.code, now);
    if (step === null) throw wrongCode();
    await tx.execute(sql`
      UPDATE users SET totp_secret_sealed = totp_pending_sealed, totp_pending_sealed = NULL, totp_enabled_at = ${now}, totp_last_step = ${step}, updated_at = ${now}
       WHERE id = ${actor.userId}`);
    const recoveryCodes = newRecoveryCodes();
    await tx.execute(sql`DELETE FROM user_recovery_codes WHERE user_id = ${actor.userId}`);
    await tx.insert(userRecoveryCodes).values(recoveryCodes.map((code) => ({ userId: actor.userId, codeHash: hashRecoveryCode(code), createdAt: now })));
    await recordAudit(tx, deps, { companyId: actor.companyId, actor: auditActor(actor), action: 'account.second_factor_enabled', ip: actor.ip });
    return { recoveryCodes };
  });
}
