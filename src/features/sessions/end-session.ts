import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/database.js';
import { sessions } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { recordAudit } from '../audit/index.js';
import type { PanelSession } from './authenticate-session.js';

/** Signs out one session, audited in the same transaction. */
export async function endSession(db: Db, deps: { clock: Clock; newId: IdGenerator }, input: { session: PanelSession; ip: string | null }) {
  await db.transaction(async (tx) => {
    await tx.delete(sessions).where(and(eq(sessions.id, input.session.sessionId), eq(sessions.userId, input.session.user.id)));
    await recordAudit(tx, deps, {
      companyId: input.session.companyId,
      actor: { userId: input.session.user.id, email: input.session.user.email },
      action: 'session.signed_out',
      details: { sessionId: input.session.sessionId },
      ip: input.ip,
    });
  });
}

/**
 * Ends a member's sessions whose current company is `companyId`, in the caller's transaction: a
 * permission change or removal must not leave a token minted before it valid (design: sessions rotate
 * at permission changes; the person signs in again). Answers how many ended.
 */
export async function endMemberSessions(tx: DbOrTx, input: { userId: string; companyId: string }): Promise<number> {
  const ended = await tx.delete(sessions).where(and(eq(sessions.userId, input.userId), eq(sessions.companyId, input.companyId))).returning({ id: sessions.id });
  return ended.length;
}
