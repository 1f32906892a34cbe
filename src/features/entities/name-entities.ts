import { and, eq, inArray } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { entities } from './table.js';

/** The names of the company's entities among `ids` (units, courses, teachers), by id; unknown ids are absent. */
export async function nameEntities(db: DbOrTx, _deps: NoDeps, input: { companyId: string; ids: readonly string[] }): Promise<Map<string, string>> {
  const ids = input.ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: entities.id, name: entities.name })
    .from(entities)
    .where(and(eq(entities.companyId, input.companyId), inArray(entities.id, ids)));
  return new Map(rows.map((row) => [row.id, row.name]));
}
