import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { recordAudit } from '../audit/index.js';
import { auditActor, type AccountActor } from './account-actor.js';
import { passwordMatches } from './password.js';
import { spendSecondFactorCode, type SecondFactorDeps } from './second-factor.js';
import { takeAccountAttempt, type BudgetDeps } from './sign-in-budget.js';

/**
 * Turns the second factor off: the password and a current code (or a recovery code) are both needed;
 * a wrong one counts against the account's failed sign-in budget, as at sign-in.
 */
export async function disableSecondFactor(db: DbOrTx, deps: SecondFactorDeps & BudgetDeps & { newId: IdGenerator }, input: { actor: AccountActor; password: string; code: string }): Promise<void> {
  const { actor } = input;
  const attempt = await takeAccountAttempt(deps, actor);
  await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ password_hash: string | null; totp_secret_sealed: Buffer | null }>(sql`
      SELECT password_hash, totp_secret_sealed FROM users WHERE id = ${actor.userId} FOR UPDATE`);
    const user = rows[0];
    if (!user?.totp_secret_sealed) {
      await attempt.release();
      throw validationError([fieldError('code', 'invalid_value', 'The second factor is not on.')]);
    }
    const passwordOk = await passwordMatches(user.password_hash, input.password);
    const codeOk = passwordOk && (await spendSecondFactorCode(tx, deps, { userId: actor.userId, code: input.code, sealed: user.totp_secret_sealed }));
    if (!passwordOk) throw validationError([fieldError('password', 'invalid_value', 'The password is wrong.')]);
    if (!codeOk) throw validationError([fieldError('code', 'invalid_value', 'This code does not match, or it was already used.')]);
    await attempt.release();
    const now = deps.clock.now();
    await tx.execute(sql`
      UPDATE users SET totp_secret_sealed = NULL, totp_pending_sealed = NULL, totp_enabled_at = NULL, totp_last_step = NULL, updated_at = ${now}
       WHERE id = ${actor.userId}`);
    await tx.execute(sql`DELETE FROM user_recovery_codes WHERE user_id = ${actor.userId}`);
    await recordAudit(tx, deps, { companyId: actor.companyId, actor: auditActor(actor), action: 'account.second_factor_disabled', ip: actor.ip });
  });
}
