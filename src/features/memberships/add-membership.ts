import { Type, type Static } from '@sinclair/typebox';
import type { DbOrTx } from '../../platform/db/database.js';
import { memberships } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { PERMISSIONS } from './permissions.js';

export const AddMembershipInput = Type.Object(
  {
    companyId: Type.String(),
    userId: Type.String(),
    permissions: Type.Array(Type.Union(PERMISSIONS.map((permission) => Type.Literal(permission))), { maxItems: PERMISSIONS.length * 2 }),
    owner: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type AddMembershipInput = Static<typeof AddMembershipInput>;

/** Makes a user a member of a company (an owner holds every permission, so its set is stored whole). */
export async function addMembership(db: DbOrTx, deps: { clock: Clock }, input: AddMembershipInput) {
  const fields = schemaErrors(AddMembershipInput, input);
  if (fields.length) throw validationError(fields);
  const now = deps.clock.now();
  const permissions = input.owner ? [...PERMISSIONS] : [...new Set(input.permissions)];
  const [row] = await db
    .insert(memberships)
    .values({ companyId: input.companyId, userId: input.userId, permissions, owner: input.owner, createdAt: now, updatedAt: now })
    .returning();
  return row;
}
