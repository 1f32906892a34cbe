import { sql } from 'drizzle-orm';
import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.js';

/** Drizzle mirror of the companies table (migration 0001; the migration is the source of truth). */
export interface CompanySettings {
  monthlyQuota?: number;
  anonymityFloor?: number;
  timeZone?: string;
  defaultCountry?: string;
  holidayCountry?: string | null;
  locale?: string;
  mailFrom?: string | null;
  [key: string]: unknown;
}

export const companies = pgTable('companies', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  settings: jsonb('settings').$type<CompanySettings>().notNull().default(sql`'{}'::jsonb`),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});
