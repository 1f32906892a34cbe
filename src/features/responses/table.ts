import { bigint, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the responses table (migrations 0001 and 0110). */
export const responses = pgTable('responses', {
  id: uuid('id').primaryKey(),
  companyId: companyId(),
  formId: uuid('form_id').notNull(),
  inviteId: uuid('invite_id'),
  respondent: jsonb('respondent').$type<Record<string, string | null> | null>(),
  answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
  dims: jsonb('dims').$type<Record<string, string>>().notNull(),
  orgUnitId: uuid('org_unit_id'),
  orgPath: text('org_path'),
  orgSource: text('org_source').notNull(),
  completedAt: ts('completed_at'),
  createdAt: ts('created_at').notNull(),
  /** Insertion order, set by the database; bounds a scan (migration 0110). */
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
});
