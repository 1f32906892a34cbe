import { Type, type Static } from '@sinclair/typebox';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { memberships } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { notFound, validationError } from '../../lib/errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { recordAudit } from '../audit/index.js';
import { endMemberSessions } from '../sessions/index.js';
import { keepAnOwner } from './last-owner.js';
import { findMember, type Member } from './list-members.js';
import { PermissionList, type Actor } from './member-input.js';
import { PERMISSIONS, type Permission } from '../memberships/index.js';

export const ChangeMemberInput = Type.Object(
  {
    companyId: Type.String(),
    userId: Type.String(),
    permissions: PermissionList,
    owner: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ChangeMemberInput = Static<typeof ChangeMemberInput>;

/**
 * Sets a member's permissions and owner flag. When they change, the member's sessions in the company
 * end (sessions rotate at permission changes): they sign in again to the new set. Demoting the
 * company's last owner is refused.
 */
export async function changeMember(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: ChangeMemberInput & { actor: Actor }): Promise<Member> {
  const { actor, ...change } = input;
  const fields = schemaErrors(ChangeMemberInput, change);
  if (fields.length) throw validationError(fields);
  return db.transaction(async (tx) => {
    const before = await findMember(tx, deps, change);
    if (!before) throw notFound('Member');
    if (before.owner && !change.owner) await keepAnOwner(tx, change.companyId, change.userId, 'owner');
    const permissions: Permission[] = change.owner ? [...PERMISSIONS] : PERMISSIONS.filter((p) => change.permissions.includes(p));
    await tx
      .update(memberships)
      .set({ permissions, owner: change.owner, updatedAt: deps.clock.now() })
      .where(and(eq(memberships.companyId, change.companyId), eq(memberships.userId, change.userId)));
    const after = (await findMember(tx, deps, change))!;
    const changed = before.owner !== after.owner || before.permissions.join() !== after.permissions.join();
    const sessionsEnded = changed ? await endMemberSessions(tx, { userId: change.userId, companyId: change.companyId }) : 0;
    await recordAudit(tx, deps, {
      companyId: change.companyId,
      actor: { userId: actor.userId, email: actor.email },
      action: 'member.permissions_changed',
      details: { userId: before.userId, email: before.email, before: { owner: before.owner, permissions: before.permissions }, after: { owner: after.owner, permissions: after.permissions }, sessionsEnded },
      ip: actor.ip,
    });
    return after;
  });
}
