import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { memberships } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { notFound } from '../../lib/errors.js';
import { recordAudit } from '../audit/index.js';
import { endMemberSessions } from '../sessions/index.js';
import { keepAnOwner } from './last-owner.js';
import { findMember } from './list-members.js';
import type { Actor } from './member-input.js';

/**
 * Removes a member from the company (their account and other memberships stay). Their sessions in
 * this company end with it (no token of the old membership stays valid). The last owner stays.
 */
export async function removeMember(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; userId: string; actor: Actor }): Promise<void> {
  const { companyId, userId, actor } = input;
  await db.transaction(async (tx) => {
    const member = await findMember(tx, deps, { companyId, userId });
    if (!member) throw notFound('Member');
    if (member.owner) await keepAnOwner(tx, companyId, userId, 'userId');
    await tx.delete(memberships).where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    const sessionsEnded = await endMemberSessions(tx, { userId, companyId });
    await recordAudit(tx, deps, {
      companyId,
      actor: { userId: actor.userId, email: actor.email },
      action: 'member.removed',
      details: { userId, email: member.email, owner: member.owner, permissions: member.permissions, sessionsEnded },
      ip: actor.ip,
    });
  });
}
