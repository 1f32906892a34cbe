import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, ts } from './columns.js';
import type { ResolvedDim, ResolvedForm } from '../features/forms/definition.js';

export * from '../features/entities/table.js';

/** Drizzle mirror of the SQL migrations in ./migrations (the migrations are the source of truth). */

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

export interface CompanySettings {
  monthlyQuota?: number;
  anonymityFloor?: number;
  timeZone?: string;
  defaultCountry?: string;
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

export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey(),
  companyId: companyId(),
  keyId: text('key_id').notNull(),
  secretHash: bytea('secret_hash').notNull(),
  name: text('name').notNull(),
  scopes: text('scopes').array().notNull(),
  rateLimitPerMin: integer('rate_limit_per_min').notNull(),
  expiresAt: ts('expires_at'),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
  createdAt: ts('created_at').notNull(),
});

export const forms = pgTable('forms', {
  id: uuid('id').primaryKey(),
  companyId: companyId(),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  description: text('description'),
  isPublic: boolean('is_public').notNull(),
  isClosed: boolean('is_closed').notNull(),
  requiresInvite: boolean('requires_invite').notNull(),
  anonymous: boolean('anonymous').notNull(),
  content: jsonb('content').$type<ResolvedForm>().notNull(),
  dims: jsonb('dims').$type<ResolvedDim[]>().notNull(),
  questionCount: integer('question_count').notNull(),
  responseCount: integer('response_count').notNull(),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

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

export const events = pgTable('events', {
  id: uuid('id').primaryKey(),
  companyId: companyId(),
  type: text('type').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  occurredAt: ts('occurred_at').notNull(),
});

/** Feature tables that live in their feature's table.ts. */
export * from '../features/webhooks/table.js';
