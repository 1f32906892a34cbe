import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { NoDeps } from '../../lib/service.js';
import { grantedPermissions, type Permission } from '../memberships/index.js';

export interface Member {
  userId: string;
  email: string;
  name: string;
  owner: boolean;
  permissions: Permission[];
  secondFactor: boolean;
  joinedAt: string;
}

type MemberRow = {
  user_id: string;
  email: string;
  name: string;
  owner: boolean;
  permissions: string[];
  second_factor: boolean;
  // raw SQL hands timestamptz over as text
  created_at: string;
};

const memberView = (row: MemberRow): Member => ({
  userId: row.user_id,
  email: row.email,
  name: row.name,
  owner: row.owner,
  permissions: grantedPermissions(row),
  secondFactor: row.second_factor,
  joinedAt: new Date(row.created_at).toISOString(),
});

const SELECT_MEMBERS = sql`
  SELECT m.user_id, u.email, u.name, m.owner, m.permissions, u.totp_enabled_at IS NOT NULL AS second_factor, m.created_at
    FROM memberships m JOIN users u ON u.id = m.user_id`;

/** The company's members, owners first, then by e-mail. */
export async function listMembers(db: DbOrTx, _deps: NoDeps, input: { companyId: string }): Promise<Member[]> {
  const { rows } = await db.execute<MemberRow>(sql`${SELECT_MEMBERS} WHERE m.company_id = ${input.companyId} ORDER BY m.owner DESC, lower(u.email), m.user_id`);
  return rows.map(memberView);
}

/** One member of the company, or null (another company's member is nobody here). */
export async function findMember(db: DbOrTx, _deps: NoDeps, input: { companyId: string; userId: string }): Promise<Member | null> {
  const { rows } = await db.execute<MemberRow>(sql`${SELECT_MEMBERS} WHERE m.company_id = ${input.companyId} AND m.user_id = ${input.userId}`);
  return rows[0] ? memberView(rows[0]) : null;
}
