import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { sessions } from '../../platform/db/schema.js';
import type { NoDeps } from '../../lib/service.js';
import { notFound } from '../../lib/errors.js';
import { findMembership } from '../memberships/index.js';

/** Moves a session to another company of its user; a company they are not a member of is NOT_FOUND. */
export async function switchCompany(db: Db, deps: NoDeps, input: { sessionId: string; userId: string; companyId: string }) {
  const membership = await findMembership(db, deps, { userId: input.userId, companyId: input.companyId });
  if (!membership) throw notFound('Company');
  await db.update(sessions).set({ companyId: input.companyId }).where(eq(sessions.id, input.sessionId));
}
