import { bigint, date, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { companyId } from '../../db/columns.js';

/** Drizzle mirror of migrations/0500_statistics.sql (the migration is the source of truth). */

export const statisticsRollups = pgTable(
  'statistics_rollups',
  {
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    cutKey: text('cut_key').notNull(),
    cutValue: text('cut_value').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    questionId: text('question_id').notNull(),
    questionType: text('question_type').notNull(),
    item: text('item').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    total: numeric('total').notNull(),
    totalSq: numeric('total_sq').notNull(),
    minValue: numeric('min_value'),
    maxValue: numeric('max_value'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.formId, t.cutKey, t.cutValue, t.day, t.questionId, t.questionType, t.item] })],
);
