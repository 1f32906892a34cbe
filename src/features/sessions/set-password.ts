import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { sessions, users } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError, validationError } from '../../lib/errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { recordAudit } from '../audit/index.js';
import { Password } from './create-user.js';
import { consumeLink } from './one-time-link.js';
import { hashPassword } from './password.js';
import { startSession } from './start-session.js';

export const LINK_REFUSED = 'The link is invalid, already used or expired.';

/**
 * Sets a password through a set-password link (new user or reset): the link is used, the hash
 * stored, every session of the user revoked, and a fresh one opened, with the audit record, in one
 * transaction.
 */
export async function setPasswordWithLink(db: Db, deps: { clock: Clock; newId: IdGenerator }, input: { token: string; password: string; ip: string | null }) {
  const fields = schemaErrors(Password, input.password, 'password');
  if (fields.length) throw validationError(fields);
  // hashed before the transaction: a slow hash should not hold a row lock
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const link = await consumeLink(tx, deps, { token: input.token, purpose: 'set_password' });
    if (!link?.userId) throw new ApiError('UNAUTHORIZED', LINK_REFUSED);
    const [user] = await tx.update(users).set({ passwordHash, updatedAt: deps.clock.now() }).where(eq(users.id, link.userId)).returning();
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    const started = await startSession(tx, deps, { userId: user.id, ip: input.ip });
    await recordAudit(tx, deps, {
      companyId: started.session.companyId,
      actor: { userId: user.id, email: user.email },
      action: 'password.set',
      details: { sessionId: started.session.id, linkId: link.id },
      ip: input.ip,
    });
    return started;
  });
}
