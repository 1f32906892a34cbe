import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies, memberships } from '../../platform/db/schema.js';
import type { NoDeps } from '../../lib/service.js';
import { grantedPermissions, type Permission } from './permissions.js';

export interface MembershipView {
  companyId: string;
  companyName: string;
  owner: boolean;
  permissions: Permission[];
}

const view = (row: { companyId: string; companyName: string; owner: boolean; permissions: string[] }): MembershipView => ({
  companyId: row.companyId,
  companyName: row.companyName,
  owner: row.owner,
  permissions: grantedPermissions(row),
});

const columns = { companyId: memberships.companyId, companyName: companies.name, owner: memberships.owner, permissions: memberships.permissions };

/** Every company a user belongs to, oldest membership first (the first is where a new session starts). */
export async function listUserMemberships(db: DbOrTx, _deps: NoDeps, input: { userId: string }): Promise<MembershipView[]> {
  const rows = await db
    .select(columns)
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(eq(memberships.userId, input.userId))
    .orderBy(asc(memberships.createdAt), asc(memberships.companyId));
  return rows.map(view);
}

/** The user's membership of one company, or null when they are not (or no longer) a member. */
export async function findMembership(db: DbOrTx, _deps: NoDeps, input: { userId: string; companyId: string }): Promise<MembershipView | null> {
  const [row] = await db
    .select(columns)
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(and(eq(memberships.userId, input.userId), eq(memberships.companyId, input.companyId)));
  return row ? view(row) : null;
}
