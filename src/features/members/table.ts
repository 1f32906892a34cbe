import { boolean, pgTable, text, uuid, primaryKey } from 'drizzle-orm/pg-core';
import { bytea, companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of the memberships table (migration 0800): a user in a company, with permissions. */
export const memberships = pgTable('memberships', {
  companyId: companyId(),
  userId: uuid('user_id').notNull(),
  permissions: text('permissions').array().notNull(),
  owner: boolean('owner').notNull(),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/** Drizzle mirror of member_invitations (migration 0840): colleague invitations, only the token's hash. */
export const memberInvitations = pgTable(
  'member_invitations',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    email: text('email').notNull(),
    permissions: text('permissions').array().notNull(),
    owner: boolean('owner').notNull(),
    tokenHash: bytea('token_hash').notNull(),
    invitedBy: uuid('invited_by'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    cancelledAt: ts('cancelled_at'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);
