import { boolean, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../db/columns.js';

/** Drizzle mirror of the memberships table (migration 0800): a user in a company, with permissions. */
export const memberships = pgTable('memberships', {
  companyId: companyId(),
  userId: uuid('user_id').notNull(),
  permissions: text('permissions').array().notNull(),
  owner: boolean('owner').notNull(),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});
