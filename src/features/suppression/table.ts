import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the suppressions table of migrations/0400_invites.sql (the migration is the source of truth). */

export const suppressions = pgTable(
  'suppressions',
  {
    companyId: companyId(),
    address: text('address').notNull(),
    reason: text('reason').$type<'bounced' | 'complained' | 'unsubscribed' | 'manual'>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.address] })],
);
