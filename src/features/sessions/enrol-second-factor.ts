import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { sealTotpSecret, type SecondFactorDeps } from './second-factor.js';
import { newTotpSecret, totpEnrolment } from './totp.js';

/**
 * Starts enrolling a TOTP second factor: a fresh secret, kept sealed as pending until a code from it
 * is confirmed (enrolling again replaces the pending one). The secret is shown now and never again.
 */
export async function enrolSecondFactor(db: DbOrTx, deps: SecondFactorDeps, input: { userId: string; email: string }) {
  const secret = newTotpSecret();
  const { rows } = await db.execute(sql`
    UPDATE users SET totp_pending_sealed = ${sealTotpSecret(deps, input.userId, secret)}, updated_at = ${deps.clock.now()}
     WHERE id = ${input.userId} AND totp_secret_sealed IS NULL RETURNING 1`);
  if (rows.length === 0) throw validationError([fieldError('secondFactor', 'invalid_value', 'The second factor is already on: turn it off first to enrol another device.')]);
  return { secret, ...(await totpEnrolment(secret, input.email)) };
}
