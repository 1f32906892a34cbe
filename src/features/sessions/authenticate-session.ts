import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { memberships, sessions, users } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { grantedPermissions, type Permission } from '../memberships/index.js';
import { SESSION_IDLE_MS } from './start-session.js';
import { hashSecret, SECRET_RE } from '../../lib/secret-token.js';

/** Who a request acts as, once its cookie is checked: the panel platform's request.panelSession. */
export interface PanelSession {
  sessionId: string;
  csrfToken: string;
  user: { id: string; email: string; name: string };
  /** The session's current company; null when the user belongs to none (or was removed from it). */
  companyId: string | null;
  permissions: ReadonlySet<Permission>;
  owner: boolean;
}

/** last_seen_at is written at most this often: a request a second should not be a write a second. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The session, user and membership of a token hash, as a named prepared statement of its database
 * handle: every panel request runs it, and parsing and planning a three-table join each time cost
 * more than reading it (bench/README.md, panel-responses).
 */
function sessionQuery(db: Db) {
  return db
    .select({ session: sessions, user: { id: users.id, email: users.email, name: users.name }, membership: { owner: memberships.owner, permissions: memberships.permissions } })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(memberships, and(eq(memberships.companyId, sessions.companyId), eq(memberships.userId, sessions.userId)))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .prepare('authenticate_session');
}
const prepared = new WeakMap<Db, ReturnType<typeof sessionQuery>>();

/**
 * The live session of a cookie token, with the member's permissions in its current company read
 * afresh (a permission change applies at the next request); null when the token is unknown or the
 * session is past its idle or absolute expiry (an expired row is deleted on sight).
 */
export async function authenticateSession(db: Db, deps: { clock: Clock }, input: { token: string }): Promise<PanelSession | null> {
  if (!SECRET_RE.test(input.token)) return null;
  const query = prepared.get(db) ?? prepared.set(db, sessionQuery(db)).get(db)!;
  const [row] = await query.execute({ tokenHash: hashSecret(input.token) });
  if (!row) return null;
  const now = deps.clock.now().getTime();
  const { session } = row;
  if (session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + SESSION_IDLE_MS <= now) {
    await db.delete(sessions).where(eq(sessions.id, session.id));
    return null;
  }
  if (now - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(and(eq(sessions.id, session.id), lt(sessions.lastSeenAt, new Date(now))));
  }
  const membership = row.membership;
  return {
    sessionId: session.id,
    csrfToken: session.csrfToken,
    user: row.user,
    companyId: membership ? session.companyId : null,
    permissions: new Set(membership ? grantedPermissions(membership) : []),
    owner: membership?.owner ?? false,
  };
}
