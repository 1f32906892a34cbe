import { asc } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies } from '../../platform/db/schema.js';

/** Every company by slug (operator view: the CLI names companies by slug). */
export async function listCompanies(db: DbOrTx, _deps: NoDeps) {
  const rows = await db.select().from(companies).orderBy(asc(companies.slug));
  return rows.map((row) => ({ id: row.id, slug: row.slug, name: row.name, createdAt: row.createdAt.toISOString() }));
}
