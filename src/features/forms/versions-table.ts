import { integer, jsonb, pgTable, text, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';
import type { FormDefinition } from './definition/index.js';

/** What one write changed: keys of sections, questions and choices (question.choice), and settings names. */
export interface FormChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Drizzle mirror of form_versions (migration 0900). */
export const formVersions = pgTable(
  'form_versions',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    version: integer('version').notNull(),
    actorUserId: uuid('actor_user_id'),
    actorEmail: text('actor_email'),
    changes: jsonb('changes').$type<FormChanges>().notNull(),
    definition: jsonb('definition').$type<FormDefinition>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);
