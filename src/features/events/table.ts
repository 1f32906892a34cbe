import { jsonb, pgTable, text, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the events table (migration 0001). */
export const events = pgTable(
  'events',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    occurredAt: ts('occurred_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);
