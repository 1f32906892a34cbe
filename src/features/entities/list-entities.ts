import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { EntityKind } from './parse-entities.js';
import { entities } from './table.js';

const parents = alias(entities, 'parent');

/** The company's entities (of one kind, or all), units in tree order, each with its parent's code. */
export async function listEntities(db: DbOrTx, _deps: NoDeps, input: { companyId: string; kind?: EntityKind }) {
  const { companyId, kind } = input;
  return db
    .select({
      id: entities.id,
      kind: entities.kind,
      code: entities.code,
      name: entities.name,
      parentCode: parents.code,
      orgPath: entities.orgPath,
    })
    .from(entities)
    .leftJoin(parents, and(eq(parents.companyId, entities.companyId), eq(parents.id, entities.parentId)))
    .where(and(eq(entities.companyId, companyId), kind ? eq(entities.kind, kind) : undefined))
    .orderBy(asc(entities.kind), sql`${entities.orgPath} COLLATE "C"`, asc(entities.code));
}
