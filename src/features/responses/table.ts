import { bigint, jsonb, pgTable, text, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the responses table (migrations 0001, 0110 and 0130). */
export const responses = pgTable(
  'responses',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    inviteId: uuid('invite_id'),
    respondent: jsonb('respondent').$type<Record<string, string | null> | null>(),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
    dims: jsonb('dims').$type<Record<string, string>>().notNull(),
    orgUnitId: uuid('org_unit_id'),
    orgPath: text('org_path'),
    orgSource: text('org_source').notNull(),
    /** The order the respondent was shown, for sections that shuffle (migration 0130); null otherwise. */
    presentedOrder: jsonb('presented_order').$type<Record<string, { questions?: string[]; options?: Record<string, string[]> }>>(),
    completedAt: ts('completed_at'),
    createdAt: ts('created_at').notNull(),
    /** Insertion order, set by the database; bounds a scan (migration 0110). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);
