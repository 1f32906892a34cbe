import { pgTable, text, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';
import type { EntityKind } from './parse-entities.js';

/** Registered entities (migration 0100): courses, teachers and the unit tree. */
export const entities = pgTable(
  'entities',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    kind: text('kind').$type<EntityKind>().notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** units only: the parent unit */
    parentId: uuid('parent_id'),
    /** units only: /<rootId>/.../<id>/ */
    orgPath: text('org_path'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export type EntityRow = typeof entities.$inferSelect;
