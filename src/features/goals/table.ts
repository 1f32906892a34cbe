import { boolean, integer, pgTable, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of form_alert_rules (migration 0750; the migration is the source of truth). */
export const formAlertRules = pgTable(
  'form_alert_rules',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    goal: integer('goal').notNull(),
    armed: boolean('armed').notNull(),
    reachedAt: ts('reached_at'),
    reachedCount: integer('reached_count'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);
