import { bigint, date, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';
import type { TreatmentOutcome } from '../events/index.js';
import type { EffectivenessCheck, FlowDefinition, FlowStep } from './flow-definition.js';
import type { TreatmentStatus } from './vocabulary.js';

/** Drizzle mirror of migrations/0600_treatments.sql (the migration is the source of truth). */

export const treatmentFlows = pgTable(
  'treatment_flows',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    definition: jsonb('definition').$type<FlowDefinition>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const treatmentCounters = pgTable('treatment_counters', {
  companyId: uuid('company_id').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

export { TREATMENT_STATUSES, type TreatmentStatus } from './vocabulary.js';

export const treatments = pgTable(
  'treatments',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    number: integer('number').notNull(),
    formId: uuid('form_id').notNull(),
    flowId: uuid('flow_id'),
    flowKey: text('flow_key').notNull(),
    responseId: uuid('response_id'),
    chainedFromId: uuid('chained_from_id'),
    steps: jsonb('steps').$type<FlowStep[]>().notNull(),
    status: text('status').$type<TreatmentStatus>().notNull(),
    stepIndex: integer('step_index').notNull(),
    stepStartedAt: ts('step_started_at').notNull(),
    stepDueAt: ts('step_due_at'),
    overdueNotifiedAt: ts('overdue_notified_at'),
    outcome: text('outcome').$type<TreatmentOutcome>(),
    reason: text('reason'),
    orgUnitId: uuid('org_unit_id'),
    orgPath: text('org_path'),
    respondentKey: text('respondent_key'),
    effectivenessCheck: jsonb('effectiveness_check').$type<EffectivenessCheck>(),
    checkDueAt: ts('check_due_at'),
    checkFormId: uuid('check_form_id'),
    checkDoneAt: ts('check_done_at'),
    openedAt: ts('opened_at').notNull(),
    closedAt: ts('closed_at'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const TREATMENT_ACTIONS = ['opened', 'advanced', 'overdue', 'closed', 'reopened'] as const;
export type TreatmentAction = (typeof TREATMENT_ACTIONS)[number];

export const treatmentHistory = pgTable(
  'treatment_history',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    treatmentId: uuid('treatment_id').notNull(),
    action: text('action').$type<TreatmentAction>().notNull(),
    stepIndex: integer('step_index').notNull(),
    outcome: text('outcome').$type<TreatmentOutcome>(),
    reason: text('reason'),
    at: ts('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const companyHolidays = pgTable(
  'company_holidays',
  {
    companyId: companyId(),
    day: date('day', { mode: 'string' }).notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day] })],
);
