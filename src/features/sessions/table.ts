import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, ts } from '../../db/columns.js';

/** Drizzle mirror of the users table (migration 0800): one account per address across companies. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  passwordHash: text('password_hash'),
  language: text('language').$type<'en' | 'pt-BR' | 'es'>(),
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
  createdAt: ts('created_at').notNull(),
  lastSeenAt: ts('last_seen_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
});
