import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { users } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError } from '../../lib/errors.js';
import { recordAudit } from '../audit/index.js';
import { consumeLink } from './one-time-link.js';
import { LINK_REFUSED } from './set-password.js';
import { startSession } from './start-session.js';

/** Signs in once through a one-time sign-in link (the demo owner's first visit), audited in the same transaction. */
export async function signInWithLink(db: Db, deps: { clock: Clock; newId: IdGenerator }, input: { token: string; ip: string | null; replacesToken?: string | null }) {
  return db.transaction(async (tx) => {
    const link = await consumeLink(tx, deps, { token: input.token, purpose: 'sign_in' });
    if (!link?.userId) throw new ApiError('UNAUTHORIZED', LINK_REFUSED);
    const [user] = await tx.select().from(users).where(eq(users.id, link.userId));
    const started = await startSession(tx, deps, { userId: user.id, ip: input.ip, replacesToken: input.replacesToken });
    await recordAudit(tx, deps, {
      companyId: started.session.companyId,
      actor: { userId: user.id, email: user.email },
      action: 'session.signed_in',
      details: { sessionId: started.session.id, method: 'link', linkId: link.id },
      ip: input.ip,
    });
    return started;
  });
}
