import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { sessions } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { listUserMemberships } from '../memberships/index.js';
import { hashSecret, mintSecret } from '../../lib/secret-token.js';

/** Idle and absolute lifetimes of a session (shared design, "Sessions and security rules"). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;

export interface StartSessionInput {
  userId: string;
  ip: string | null;
  /** The browser's User-Agent, shown in the person's session list (cut to the column's bound). */
  userAgent?: string | null;
  /** The company to start in (an accepted invitation's); the user's first company when absent. */
  companyId?: string;
  /** The session this browser held before, if any: signing in replaces it (rotation). */
  replacesToken?: string | null;
}

/**
 * Opens a session for a user in their first company (null when they belong to none) and returns
 * the cookie token, shown once: only its hash is stored.
 */
export async function startSession(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: StartSessionInput) {
  const now = deps.clock.now();
  if (input.replacesToken) await db.delete(sessions).where(eq(sessions.tokenHash, hashSecret(input.replacesToken)));
  const memberships = await listUserMemberships(db, deps, { userId: input.userId });
  const start = memberships.find((membership) => membership.companyId === input.companyId) ?? memberships[0];
  const token = mintSecret();
  const [row] = await db
    .insert(sessions)
    .values({
      id: deps.newId(),
      userId: input.userId,
      tokenHash: hashSecret(token),
      csrfToken: mintSecret(),
      companyId: start?.companyId ?? null,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 400) ?? null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
    })
    .returning();
  return { token, session: row };
}
