import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the api_keys table (migration 0001). */
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
