import { and, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { isUuid } from '../../lib/ids.js';
import type { EntityKind } from './parse-entities.js';
import { entities, type EntityRow } from './table.js';

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

/**
 * Resolves many references in one query. A value is the entity's id when it is a UUID of an
 * entity of that kind in the company, otherwise the caller's code; another company's entity, or
 * one of another kind, is never found.
 */
export async function resolveEntityRefs(db: DbOrTx, companyId: string, refs: readonly EntityRef[]): Promise<ResolvedEntities> {
  const found = new Map<string, Entity>();
  const distinct = [...new Map(refs.map((ref) => [refKey(ref.kind, ref.value), ref])).values()];
  if (distinct.length > 0) {
    const payload = JSON.stringify(distinct.map(({ kind, value }) => ({ kind, value, id: isUuid(value) ? value : null })));
    const rows = await db
      .select({
        refKind: sql<EntityKind>`r.kind`,
        refValue: sql<string>`r.value`,
        byId: sql<boolean>`${entities.id} = r.id`,
        id: entities.id,
        kind: entities.kind,
        code: entities.code,
        name: entities.name,
        parentId: entities.parentId,
        orgPath: entities.orgPath,
      })
      .from(sql`jsonb_to_recordset(${payload}::jsonb) AS r(kind text, value text, id uuid)`)
      .innerJoin(
        entities,
        and(eq(entities.companyId, companyId), sql`${entities.kind} = r.kind`, or(sql`${entities.id} = r.id`, sql`${entities.code} = r.value`)),
      );
    // A value can be one entity's id and another's code: the id wins.
    for (const { refKind, refValue, byId, ...entity } of rows) {
      const key = refKey(refKind, refValue);
      if (byId || !found.has(key)) found.set(key, entity);
    }
  }
  return { get: (kind, value) => found.get(refKey(kind, value)) ?? null };
}

/** One reference: the entity, or null when the company has no entity of that kind with that id or code. */
export async function resolveEntityRef(db: DbOrTx, companyId: string, kind: EntityKind, value: string): Promise<Entity | null> {
  return (await resolveEntityRefs(db, companyId, [{ kind, value }])).get(kind, value);
}
