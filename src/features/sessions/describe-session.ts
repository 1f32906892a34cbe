import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { sessions, users } from '../../platform/db/schema.js';
import type { NoDeps } from '../../lib/service.js';
import { listUserMemberships, type Permission } from '../memberships/index.js';

export interface SessionView {
  user: { id: string; email: string; name: string; language: 'en' | 'pt-BR' | 'es' | null; secondFactor: boolean };
  companies: Array<{ id: string; name: string; owner: boolean; permissions: Permission[] }>;
  company: { id: string; name: string } | null;
  permissions: Permission[];
  owner: boolean;
  csrfToken: string;
}

/** What the panel shows of a session: the person, their companies, the current one and what they may do there. */
export async function describeSession(db: Db, deps: NoDeps, input: { sessionId: string }): Promise<SessionView> {
  const [row] = await db.select({ session: sessions, user: users }).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(eq(sessions.id, input.sessionId));
  const memberships = await listUserMemberships(db, deps, { userId: row.user.id });
  const current = memberships.find((membership) => membership.companyId === row.session.companyId) ?? null;
  return {
    user: { id: row.user.id, email: row.user.email, name: row.user.name, language: row.user.language ?? null, secondFactor: row.user.totpEnabledAt !== null },
    companies: memberships.map((membership) => ({ id: membership.companyId, name: membership.companyName, owner: membership.owner, permissions: membership.permissions })),
    company: current ? { id: current.companyId, name: current.companyName } : null,
    permissions: current?.permissions ?? [],
    owner: current?.owner ?? false,
    csrfToken: row.session.csrfToken,
  };
}
