import { boolean, integer, jsonb, pgTable, text, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';
import type { ResolvedDim, ResolvedForm } from './definition/index.js';
import type { FormLanguage } from './definition/vocabulary.js';

/** Drizzle mirror of the forms table (migration 0001; language 0749; closing date 0980). */
export const forms = pgTable(
  'forms',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    isPublic: boolean('is_public').notNull(),
    isClosed: boolean('is_closed').notNull(),
    requiresInvite: boolean('requires_invite').notNull(),
    anonymous: boolean('anonymous').notNull(),
    language: text('language').$type<FormLanguage>(),
    closesAt: ts('closes_at'),
    content: jsonb('content').$type<ResolvedForm>().notNull(),
    dims: jsonb('dims').$type<ResolvedDim[]>().notNull(),
    questionCount: integer('question_count').notNull(),
    responseCount: integer('response_count').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);
