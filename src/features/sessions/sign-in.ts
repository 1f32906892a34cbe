import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { users } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError } from '../../lib/errors.js';
import { recordAudit } from '../audit/index.js';
import { listUserMemberships } from '../members/index.js';
import { passwordMatches } from './password.js';
import { startSession } from './start-session.js';

export const SIGN_IN_REFUSED = 'The e-mail address or the password is wrong.';

export interface SignInInput {
  email: string;
  password: string;
  ip: string | null;
  replacesToken?: string | null;
}

export type SignInDeps = { clock: Clock; newId: IdGenerator };

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email.trim()})`);
  return user ?? null;
}

/**
 * Signs in with an address and a password. An unknown address and a wrong password get the same
 * answer after the same work (a dummy hash is verified); the failure is audited either way, and a
 * success opens a fresh session (the browser's old one is dropped) with its audit record in one
 * transaction.
 */
export async function signIn(db: Db, deps: SignInDeps, input: SignInInput) {
  const user = await findUserByEmail(db, input.email);
  const matches = await passwordMatches(user?.passwordHash ?? null, input.password);
  const [home] = user ? await listUserMemberships(db, deps, { userId: user.id }) : [];
  if (!user || !matches) {
    await recordAudit(db, deps, {
      companyId: home?.companyId ?? null,
      actor: { userId: user?.id ?? null, email: input.email },
      action: 'session.sign_in_failed',
      ip: input.ip,
    });
    throw new ApiError('UNAUTHORIZED', SIGN_IN_REFUSED);
  }
  return db.transaction(async (tx) => {
    const started = await startSession(tx, deps, { userId: user.id, ip: input.ip, replacesToken: input.replacesToken });
    await recordAudit(tx, deps, {
      companyId: started.session.companyId,
      actor: { userId: user.id, email: user.email },
      action: 'session.signed_in',
      details: { sessionId: started.session.id, method: 'password' },
      ip: input.ip,
    });
    return started;
  });
}
