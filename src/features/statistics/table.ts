import { bigint, date, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../db/columns.js';

/** Drizzle mirrors of migrations/0500 and 0510 (the migrations are the source of truth). */

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

/** Mirror of migrations/0510_response_dim_scan.sql: the keyset path of single-dim response scans. */
export const responseDimScan = pgTable(
  'response_dim_scan',
  {
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    dimKey: text('dim_key').notNull(),
    value: text('value').notNull(),
    createdAt: ts('created_at').notNull(),
    responseId: uuid('response_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.formId, t.dimKey, t.value, t.createdAt, t.responseId] })],
);
