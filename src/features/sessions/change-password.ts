import { and, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { sessions, users } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { recordAudit } from '../audit/index.js';
import { auditActor, type AccountActor } from './account-actor.js';
import { Password } from './create-user.js';
import { hashPassword, passwordMatches } from './password.js';
import { takeAccountAttempt, type BudgetDeps } from './sign-in-budget.js';

/**
 * Changes the signed-in person's password: the current one is required, and every other session of
 * theirs ends (a thief holding one is out); the session that asked stays. A wrong current password
 * counts against the account's failed sign-in budget (a stolen session must not guess it unhindered).
 */
export async function changePassword(
  db: DbOrTx,
  deps: { clock: Clock; newId: IdGenerator } & BudgetDeps,
  input: { actor: AccountActor; sessionId: string; currentPassword: string; newPassword: string },
): Promise<{ otherSessionsEnded: number }> {
  const { actor } = input;
  const fields = schemaErrors(Password, input.newPassword, 'newPassword');
  if (fields.length) throw validationError(fields);
  const attempt = await takeAccountAttempt(deps, actor);
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, actor.userId));
  if (!(await passwordMatches(user?.passwordHash ?? null, input.currentPassword))) {
    throw validationError([fieldError('currentPassword', 'invalid_value', 'The current password is wrong.')]);
  }
  await attempt.release();
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: deps.clock.now() }).where(eq(users.id, actor.userId));
    const ended = await tx.delete(sessions).where(and(eq(sessions.userId, actor.userId), ne(sessions.id, input.sessionId))).returning({ id: sessions.id });
    await recordAudit(tx, deps, { companyId: actor.companyId, actor: auditActor(actor), action: 'account.password_changed', details: { otherSessionsEnded: ended.length }, ip: actor.ip });
    return { otherSessionsEnded: ended.length };
  });
}
