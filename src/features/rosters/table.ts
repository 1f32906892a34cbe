import { date, jsonb, pgTable, text, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';
import type { EnrollmentStatus } from './vocabulary.js';

/** Drizzle mirror of migrations/0300_rosters.sql (the migration is the source of truth). */

export { ENROLLMENT_STATUSES, type EnrollmentStatus } from './vocabulary.js';

export const rosterOperations = pgTable(
  'roster_operations',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    kind: text('kind').$type<'import' | 'set-status'>().notNull(),
    mode: text('mode').$type<'upsert' | 'sync'>(),
    summary: jsonb('summary').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const people = pgTable(
  'people',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const classGroups = pgTable(
  'class_groups',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    startsOn: date('starts_on', { mode: 'string' }),
    endsOn: date('ends_on', { mode: 'string' }),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const classes = pgTable(
  'classes',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    classGroupId: uuid('class_group_id'),
    courseItemId: uuid('course_item_id').notNull(),
    orgUnitId: uuid('org_unit_id').notNull(),
    teacherIds: uuid('teacher_ids').array().notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const enrollments = pgTable(
  'enrollments',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    personId: uuid('person_id').notNull(),
    classId: uuid('class_id').notNull(),
    status: text('status').$type<EnrollmentStatus>().notNull(),
    statusChangedAt: ts('status_changed_at').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const enrollmentChanges = pgTable(
  'enrollment_changes',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    enrollmentId: uuid('enrollment_id').notNull(),
    operationId: uuid('operation_id').notNull(),
    fromStatus: text('from_status').$type<EnrollmentStatus>(),
    toStatus: text('to_status').$type<EnrollmentStatus>().notNull(),
    changedAt: ts('changed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);
