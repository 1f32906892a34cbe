import { and, desc, eq, gt, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { sessions } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { isUuid } from '../../lib/ids.js';
import { notFound } from '../../lib/errors.js';
import { recordAudit } from '../audit/index.js';
import { auditActor, type AccountActor } from './account-actor.js';
import { SESSION_IDLE_MS } from './start-session.js';

export interface UserSessionView {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
}

/** The person's live sessions (past neither expiry), most recently seen first; the one asking is marked current. */
export async function listUserSessions(db: DbOrTx, deps: { clock: Clock }, input: { userId: string; sessionId: string }): Promise<UserSessionView[]> {
  const now = deps.clock.now();
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, input.userId), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS))))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  return rows.map((row) => ({
    id: row.id,
    current: row.id === input.sessionId,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    ip: row.ip,
    userAgent: row.userAgent,
  }));
}

/**
 * Signs out one of the person's sessions (`sessionId`), or every one but the current (`others`).
 * Another person's session is not found, as an unknown one is.
 */
export async function endUserSessions(
  db: DbOrTx,
  deps: { clock: Clock; newId: IdGenerator },
  input: { actor: AccountActor; currentSessionId: string } & ({ sessionId: string } | { others: true }),
): Promise<{ ended: number }> {
  const { actor } = input;
  if ('sessionId' in input && !isUuid(input.sessionId)) throw notFound('Session');
  return db.transaction(async (tx) => {
    const which = 'sessionId' in input ? eq(sessions.id, input.sessionId) : ne(sessions.id, input.currentSessionId);
    const ended = await tx.delete(sessions).where(and(eq(sessions.userId, actor.userId), which)).returning({ id: sessions.id });
    if ('sessionId' in input && ended.length === 0) throw notFound('Session');
    await recordAudit(tx, deps, {
      companyId: actor.companyId,
      actor: auditActor(actor),
      action: 'session.signed_out',
      details: { sessionIds: ended.map((row) => row.id), by: 'account' },
      ip: actor.ip,
    });
    return { ended: ended.length };
  });
}
