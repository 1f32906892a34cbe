/**
 * The Drizzle mirror of the SQL migrations (the migrations are the source of truth), gathered
 * from each feature's table.ts; src/platform/db/schema.test.ts compares it with the migrated database.
 */
export * from '../../features/companies/table.js';
export * from '../../features/keys/table.js';
export * from '../../features/forms/table.js';
export * from '../../features/forms/versions-table.js';
export * from '../../features/responses/table.js';
export * from '../../features/events/table.js';
export * from '../../features/entities/table.js';
export * from '../../features/webhooks/table.js';
export * from '../../features/rosters/table.js';
export * from '../../features/invites/table.js';
export * from '../../features/messaging/table.js';
export * from '../../features/suppression/table.js';
export * from '../../features/statistics/table.js';
export * from '../../features/goals/table.js';
export * from '../../features/respondent/table.js';
export * from '../../features/treatments/table.js';
export * from '../../features/sessions/table.js';
export * from '../../features/members/table.js';
export * from '../../features/audit/table.js';
export * from '../../features/idempotency/table.js';
export * from '../../features/reminders/table.js';
