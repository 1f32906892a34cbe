import { integer, jsonb, pgTable, text, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';
import type { InviteStatus } from './schemas.js';

/** Drizzle mirror of migrations/0400_invites.sql (the migration is the source of truth). */

type Channel = 'email' | 'whatsapp';

export const inviteBatches = pgTable(
  'invite_batches',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    kind: text('kind').$type<'import' | 'send'>().notNull(),
    channel: text('channel').$type<Channel>(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const invites = pgTable(
  'invites',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    token: text('token').notNull(),
    status: text('status').$type<InviteStatus>().notNull(),
    email: text('email'),
    phone: text('phone'),
    name: text('name'),
    externalId: text('external_id'),
    dims: jsonb('dims').$type<Record<string, string>>().notNull(),
    orgUnitId: uuid('org_unit_id'),
    orgPath: text('org_path'),
    batchId: uuid('batch_id'),
    channel: text('channel').$type<Channel>(),
    sendBatchId: uuid('send_batch_id'),
    expiresAt: ts('expires_at'),
    statusChangedAt: ts('status_changed_at').notNull(),
    createdAt: ts('created_at').notNull(),
    /** The respondent surface's lifecycle stamps (migration 0700), each set once. */
    openedAt: ts('opened_at'),
    startedAt: ts('started_at'),
    respondedAt: ts('responded_at'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const inviteMessages = pgTable(
  'invite_messages',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    inviteId: uuid('invite_id').notNull(),
    batchId: uuid('batch_id').notNull(),
    channel: text('channel').$type<Channel>().notNull(),
    status: text('status').$type<'pending' | 'sent' | 'failed' | 'cancelled'>().notNull(),
    template: jsonb('template').$type<Record<string, unknown>>(),
    dueAt: ts('due_at').notNull(),
    leaseUntil: ts('lease_until'),
    attempts: integer('attempts').notNull(),
    providerMessageId: text('provider_message_id'),
    lastError: text('last_error'),
    quotaPeriod: text('quota_period').notNull(),
    createdAt: ts('created_at').notNull(),
    completedAt: ts('completed_at'),
    /** The invitation or a reminder (migration 0970, reminder schedules): which template of the form renders it. */
    purpose: text('purpose').$type<'invitation' | 'reminder'>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);
