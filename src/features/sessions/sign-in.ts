import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/database.js';
import { users } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError } from '../../lib/errors.js';
import { recordAudit } from '../audit/index.js';
import { listUserMemberships } from '../memberships/index.js';
import { passwordMatches } from './password.js';
import { checkSecondFactor, type SecondFactorDeps } from './second-factor.js';
import { startSession } from './start-session.js';
import { takeSignInAttempt, type BudgetDeps } from './sign-in-budget.js';

export const SIGN_IN_REFUSED = 'The e-mail address or the password is wrong.';

export interface SignInInput {
  email: string;
  password: string;
  /** The TOTP or a recovery code, for an account with a second factor. */
  code?: string;
  ip: string | null;
  userAgent?: string | null;
  replacesToken?: string | null;
}

export type SignInDeps = { clock: Clock; newId: IdGenerator } & BudgetDeps & SecondFactorDeps;

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email.trim()})`);
  return user ?? null;
}

/**
 * Signs in with an address and a password. An unknown address and a wrong password get the same
 * answer after the same work (a dummy hash is verified); the attempt holds a unit of the address's and
 * the account's budgets from the start (past either: 429), a failure is audited and keeps it, anything
 * else gives it back; a success opens a fresh session (the browser's old one is dropped) with its audit
 * record in one transaction.
 */
export async function signIn(db: Db, deps: SignInDeps, input: SignInInput) {
  const attempt = await takeSignInAttempt(deps, input);
  let failed = false;
  try {
    const user = await findUserByEmail(db, input.email);
    const matches = await passwordMatches(user?.passwordHash ?? null, input.password);
    const [home] = user ? await listUserMemberships(db, deps, { userId: user.id }) : [];
    if (!user || !matches) {
      failed = true;
      await recordAudit(db, deps, {
        companyId: home?.companyId ?? null,
        actor: { userId: user?.id ?? null, email: input.email },
        action: 'session.sign_in_failed',
        ip: input.ip,
      });
      throw new ApiError('UNAUTHORIZED', SIGN_IN_REFUSED);
    }
    try {
      // the code is spent in its own statement: a later failure to open the session costs one code, never a replay
      await checkSecondFactor(db, deps, { userId: user.id, code: input.code });
    } catch (err) {
      // the password was right: only a wrong code is a failed sign-in (a missing one is the second step's question); codes are guessed like passwords
      if (input.code) {
        failed = true;
        await recordAudit(db, deps, { companyId: home?.companyId ?? null, actor: { userId: user.id, email: user.email }, action: 'session.sign_in_failed', details: { reason: 'second_factor' }, ip: input.ip });
      }
      throw err;
    }
    return await db.transaction(async (tx) => {
      const started = await startSession(tx, deps, { userId: user.id, ip: input.ip, userAgent: input.userAgent, replacesToken: input.replacesToken });
      await recordAudit(tx, deps, {
        companyId: started.session.companyId,
        actor: { userId: user.id, email: user.email },
        action: 'session.signed_in',
        details: { sessionId: started.session.id, method: input.code ? 'password+totp' : 'password' },
        ip: input.ip,
      });
      return started;
    });
  } finally {
    if (!failed) await attempt.release();
  }
}
