import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the companies table (migration 0001; the migration is the source of truth). */
export interface CompanySettings {
  monthlyQuota?: number;
  anonymityFloor?: number;
  timeZone?: string;
  defaultCountry?: string;
  holidayCountry?: string | null;
  locale?: string | null;
  mailFrom?: string | null;
  brandColor?: string | null;
  logo?: string;
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

/** Each company's message quota by UTC month (migration 0400; quota.ts reserves and settles it). */
export const quotaUsage = pgTable(
  'quota_usage',
  {
    companyId: companyId(),
    period: text('period').notNull(),
    used: integer('used').notNull(),
    reserved: integer('reserved').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.period] })],
);

/** Each company's logo, served by Quorum at /r/logos/{companyId}/{file} (migration 0031; brand.ts). */
export const companyLogos = pgTable('company_logos', {
  companyId: uuid('company_id').primaryKey(),
  file: text('file').notNull(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  updatedAt: ts('updated_at').notNull(),
});
