import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the audit_records table (migration 0800). */
export const auditRecords = pgTable('audit_records', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id'),
  actorUserId: uuid('actor_user_id'),
  actorEmail: text('actor_email'),
  action: text('action').notNull(),
  details: jsonb('details').$type<Record<string, unknown>>().notNull(),
  ip: text('ip'),
  createdAt: ts('created_at').notNull(),
});
