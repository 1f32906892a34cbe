import { boolean, integer, pgTable, text, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { bytea, companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of migrations/0200_webhooks.sql (the migration is the source of truth). */

export type DisabledReason = 'operator' | 'gone' | 'failing';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    url: text('url').notNull(),
    types: text('types').array().notNull(),
    enabled: boolean('enabled').notNull(),
    description: text('description').notNull(),
    secretSealed: bytea('secret_sealed').notNull(),
    previousSecretSealed: bytea('previous_secret_sealed'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    failingSince: ts('failing_since'),
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason').$type<DisabledReason>(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    subscriptionId: uuid('subscription_id').notNull(),
    eventId: uuid('event_id').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull(),
    attempts: integer('attempts').notNull(),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    leaseUntil: ts('lease_until'),
    createdAt: ts('created_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    companyId: companyId(),
    deliveryId: uuid('delivery_id').notNull(),
    attempt: integer('attempt').notNull(),
    startedAt: ts('started_at').notNull(),
    durationMs: integer('duration_ms'),
    statusCode: integer('status_code'),
    error: text('error'),
    responseBody: text('response_body'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.deliveryId, t.attempt] })],
);
