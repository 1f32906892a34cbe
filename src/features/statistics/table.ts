import { bigint, date, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirrors of migrations/0520, 0540 and 0510 (the migrations are the source of truth). */

export const statisticsRollups = pgTable(
  'statistics_rollups',
  {
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    cutKey: text('cut_key').notNull(),
    cutValue: text('cut_value').notNull(),
    span: text('span', { enum: ['day', 'month'] }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    responses: bigint('responses', { mode: 'number' }).notNull(),
    tally: jsonb('tally').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.formId, t.cutKey, t.cutValue, t.span, t.day] })],
);

/** Responses added to the rollups and not yet folded into their day and month rows (migration 0540). */
export const statisticsRollupPending = pgTable(
  'statistics_rollup_pending',
  {
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    responseId: uuid('response_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    cutKeys: text('cut_keys').array().notNull(),
    cutValues: text('cut_values').array().notNull(),
    tally: jsonb('tally').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.formId, t.responseId] })],
);

/** Mirror of migrations/0510 and 0550: the keyset path of single-dim response scans (seq: INCLUDEd in the key). */
export const responseDimScan = pgTable(
  'response_dim_scan',
  {
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    dimKey: text('dim_key').notNull(),
    value: text('value').notNull(),
    createdAt: ts('created_at').notNull(),
    responseId: uuid('response_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.formId, t.dimKey, t.value, t.createdAt, t.responseId] })],
);
