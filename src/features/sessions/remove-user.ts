import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/database.js';
import { memberships, users } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { notFound, validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { recordAudit } from '../audit/index.js';
import { findUserByEmail } from './sign-in.js';

/** Companies where this user is the only owner: removing them there would leave no one to manage members. */
async function soleOwnerships(tx: DbOrTx, userId: string, companyId?: string): Promise<string[]> {
  const owned = await tx
    .select({ companyId: memberships.companyId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.owner, true), companyId ? eq(memberships.companyId, companyId) : undefined));
  const sole: string[] = [];
  for (const { companyId: id } of owned) {
    const [other] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(memberships)
      .where(and(eq(memberships.companyId, id), eq(memberships.owner, true), ne(memberships.userId, userId)));
    if (other.n === 0) sole.push(id);
  }
  return sole;
}

/**
 * Removes a user from one company (their membership), or, without a company, the account itself
 * (memberships, sessions and links go with it). The last owner of a company is never removed from it.
 */
export async function removeUser(db: Db, deps: { clock: Clock; newId: IdGenerator }, input: { email: string; companyId?: string }) {
  return db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, input.email);
    if (!user) throw notFound('User');
    // lock the user's memberships so two removals cannot each leave the other as the "other owner"
    await tx.execute(sql`SELECT 1 FROM memberships WHERE company_id IN (SELECT company_id FROM memberships WHERE user_id = ${user.id}) FOR UPDATE`);
    if ((await soleOwnerships(tx, user.id, input.companyId)).length > 0) {
      throw validationError([fieldError('email', 'invalid_value', 'this user is the last owner of the company; make someone else an owner first')]);
    }
    const audited = { actor: { userId: null, email: null }, details: { userId: user.id, email: user.email, via: 'cli' }, ip: null };
    if (input.companyId) {
      const removed = await tx.delete(memberships).where(and(eq(memberships.userId, user.id), eq(memberships.companyId, input.companyId))).returning();
      if (removed.length === 0) throw notFound('Member');
      await recordAudit(tx, deps, { ...audited, companyId: input.companyId, action: 'member.removed' });
      return { email: user.email, removedFrom: [input.companyId], accountRemoved: false };
    }
    const removed = await tx.delete(memberships).where(eq(memberships.userId, user.id)).returning();
    for (const membership of removed) await recordAudit(tx, deps, { ...audited, companyId: membership.companyId, action: 'member.removed' });
    await tx.delete(users).where(eq(users.id, user.id));
    return { email: user.email, removedFrom: removed.map((membership) => membership.companyId), accountRemoved: true };
  });
}
