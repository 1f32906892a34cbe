import { bigint, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the users table (migration 0800): one account per address across companies. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  passwordHash: text('password_hash'),
  language: text('language').$type<'en' | 'pt-BR' | 'es'>(),
  /** The TOTP second factor (migration 0841): the secret sealed to the user, and the last accepted time step. */
  totpSecretSealed: bytea('totp_secret_sealed'),
  totpPendingSealed: bytea('totp_pending_sealed'),
  totpEnabledAt: ts('totp_enabled_at'),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/** Drizzle mirror of the sessions table (migration 0800): only the token's SHA-256 is stored. */
export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  tokenHash: bytea('token_hash').notNull(),
  csrfToken: text('csrf_token').notNull(),
  companyId: uuid('company_id'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: ts('created_at').notNull(),
  lastSeenAt: ts('last_seen_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
});

/** Drizzle mirror of user_recovery_codes (migration 0841): one-time second-factor codes, only their SHA-256. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    userId: uuid('user_id').notNull(),
    codeHash: bytea('code_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    usedAt: ts('used_at'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
);

/** Drizzle mirror of the one_time_links table (migration 0801). */
export const oneTimeLinks = pgTable('one_time_links', {
  id: uuid('id').primaryKey(),
  tokenHash: bytea('token_hash').notNull(),
  purpose: text('purpose').$type<LinkPurpose>().notNull(),
  userId: uuid('user_id'),
  companyId: uuid('company_id'),
  details: jsonb('details').$type<Record<string, unknown>>().notNull(),
  createdAt: ts('created_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

export type LinkPurpose = 'set_password' | 'sign_in' | 'invitation';
