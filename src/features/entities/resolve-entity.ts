import { sql } from 'drizzle-orm';
import { noDeps, type NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { isUuid } from '../../lib/ids.js';
import type { EntityKind } from './parse-entities.js';
import type { EntityRow } from './table.js';

/** A registered entity as the other features use it. */
export type Entity = Pick<EntityRow, 'id' | 'kind' | 'code' | 'name' | 'parentId' | 'orgPath'>;

/** What a caller wrote for an entity: its id or the caller's own code. */
export interface EntityRef {
  kind: EntityKind;
  value: string;
}

export interface ResolvedEntities {
  get(kind: EntityKind, value: string): Entity | null;
}

const refKey = (kind: EntityKind, value: string) => `${kind}\u0000${value}`;

type MatchedRow = Entity & { refKind: EntityKind; refValue: string; byId: boolean };

/** Matches by id and by code as two equi-joins: an OR in one join would compare every pair. */
async function matchRefs(db: DbOrTx, companyId: string, refs: readonly EntityRef[]): Promise<MatchedRow[]> {
  const payload = JSON.stringify(refs.map(({ kind, value }) => ({ kind, value, id: isUuid(value) ? value : null })));
  const match = (byId: boolean) => sql`
    SELECT r.kind AS "refKind", r.value AS "refValue", ${sql.raw(String(byId))} AS "byId", e.id, e.kind, e.code, e.name,
           e.parent_id AS "parentId", e.org_path AS "orgPath"
      FROM refs r JOIN entities e ON e.company_id = ${companyId} AND e.kind = r.kind AND ${byId ? sql`e.id = r.id` : sql`e.code = r.value`}`;
  const { rows } = await db.execute<MatchedRow>(sql`
    WITH refs AS (SELECT * FROM jsonb_to_recordset(${payload}::jsonb) AS r(kind text, value text, id uuid))
    ${match(true)} UNION ALL ${match(false)}`);
  return rows;
}

/**
 * Resolves many references in one query. A value is the entity's id when it is a UUID of an
 * entity of that kind in the company, otherwise the caller's code; another company's entity, or
 * one of another kind, is never found.
 */
export async function resolveEntityRefs(db: DbOrTx, _deps: NoDeps, input: { companyId: string; refs: readonly EntityRef[] }): Promise<ResolvedEntities> {
  const { companyId, refs } = input;
  const found = new Map<string, Entity>();
  const distinct = [...new Map(refs.map((ref) => [refKey(ref.kind, ref.value), ref])).values()];
  const rows = distinct.length > 0 ? await matchRefs(db, companyId, distinct) : [];
  // A value can be one entity's id and another's code: the id wins.
  for (const { refKind, refValue, byId, ...entity } of rows) {
    const key = refKey(refKind, refValue);
    if (byId || !found.has(key)) found.set(key, entity);
  }
  return { get: (kind, value) => found.get(refKey(kind, value)) ?? null };
}

/** One reference: the entity, or null when the company has no entity of that kind with that id or code. */
export async function resolveEntityRef(db: DbOrTx, companyId: string, kind: EntityKind, value: string): Promise<Entity | null> {
  return (await resolveEntityRefs(db, noDeps, { companyId, refs: [{ kind, value }] })).get(kind, value);
}
