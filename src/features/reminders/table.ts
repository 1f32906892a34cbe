import { integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of migrations/0970_reminders.sql (the migration is the source of truth). */

type Channel = 'email' | 'whatsapp';

export const reminderSchedules = pgTable(
  'reminder_schedules',
  {
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    channel: text('channel').$type<Channel>().notNull(),
    afterDays: integer('after_days').notNull(),
    maxReminders: integer('max_reminders').notNull(),
    localHour: integer('local_hour').notNull(),
    finalDaysBefore: integer('final_days_before'),
    template: jsonb('template').$type<{ name: string; language: string; variables?: Record<string, string> }>(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.formId, t.channel] })],
);

export const reminderSteps = pgTable(
  'reminder_steps',
  {
    companyId: companyId(),
    inviteId: uuid('invite_id').notNull(),
    channel: text('channel').$type<Channel>().notNull(),
    step: integer('step').notNull(),
    batchId: uuid('batch_id').notNull(),
    skipReason: text('skip_reason'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.inviteId, t.channel, t.step] })],
);
