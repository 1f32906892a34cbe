import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies, memberships, users } from '../../platform/db/schema.js';
import type { NoDeps } from '../../lib/service.js';
import { grantedPermissions } from '../memberships/index.js';

/** Panel users with their memberships, by address; with a company, only its members (and only that membership). */
export async function listUsers(db: DbOrTx, _deps: NoDeps, input: { companyId?: string }) {
  const rows = await db
    .select({ user: users, companyId: memberships.companyId, company: companies.slug, owner: memberships.owner, permissions: memberships.permissions })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .leftJoin(companies, eq(companies.id, memberships.companyId))
    .where(input.companyId ? eq(memberships.companyId, input.companyId) : undefined)
    .orderBy(asc(users.email), asc(companies.slug));
  const byUser = new Map<string, { id: string; email: string; name: string; passwordSet: boolean; companies: Array<{ company: string; owner: boolean; permissions: string[] }> }>();
  for (const row of rows) {
    const entry = byUser.get(row.user.id) ?? { id: row.user.id, email: row.user.email, name: row.user.name, passwordSet: row.user.passwordHash !== null, companies: [] };
    byUser.set(row.user.id, entry);
    if (row.company && row.owner !== null && row.permissions) entry.companies.push({ company: row.company, owner: row.owner, permissions: grantedPermissions({ owner: row.owner, permissions: row.permissions }) });
  }
  return [...byUser.values()];
}
