import { jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the messaging tables of migrations/0400_invites.sql (the migration is the source of truth). */

export const messagingChannels = pgTable(
  'messaging_channels',
  {
    companyId: companyId(),
    channel: text('channel').$type<'whatsapp'>().notNull(),
    provider: text('provider').$type<'cloud-api' | 'gateway'>().notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    credentialsSealed: bytea('credentials_sealed').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.channel] })],
);

export const devMail = pgTable('dev_mail', {
  id: uuid('id').primaryKey(),
  messageId: text('message_id').notNull(),
  sender: text('sender').notNull(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  headers: jsonb('headers').$type<Record<string, string>>().notNull(),
  createdAt: ts('created_at').notNull(),
});
