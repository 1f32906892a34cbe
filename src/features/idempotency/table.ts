import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the idempotency_keys table (migration 0940). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    companyId: companyId(),
    apiKeyId: uuid('api_key_id').notNull(),
    idemKey: text('idem_key').notNull(),
    fingerprint: bytea('fingerprint').notNull(),
    statusCode: integer('status_code'),
    contentType: text('content_type'),
    body: bytea('body'),
    createdAt: ts('created_at').notNull(),
    lockedUntil: ts('locked_until').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.apiKeyId, t.idemKey] })],
);
