import { bigint, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, ts } from '../../platform/db/columns.js';

/** Drizzle mirror of migrations/0700_respondent.sql and 0710_public_link_tokens.sql (the migrations are the source of truth). */

export const inviteDrafts = pgTable(
  'invite_drafts',
  {
    inviteId: uuid('invite_id').notNull(),
    companyId: companyId(),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
    sectionIndex: integer('section_index').notNull(),
    savedAt: ts('saved_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.inviteId] })],
);

export const respondentUploads = pgTable(
  'respondent_uploads',
  {
    id: uuid('id').notNull(),
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    inviteId: uuid('invite_id'),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    responseId: uuid('response_id'),
    createdAt: ts('created_at').notNull(),
    sourceKey: text('source_key'),
    submissionNonce: text('submission_nonce'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

export const publicLinkSubmissions = pgTable(
  'public_link_submissions',
  {
    companyId: companyId(),
    nonce: text('nonce').notNull(),
    formId: uuid('form_id').notNull(),
    responseId: uuid('response_id'),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.nonce] })],
);

/** Mirror of migrations/0720_respondent_page_states.sql. */
export const respondentPageStates = pgTable(
  'respondent_page_states',
  {
    keyHash: text('key_hash').notNull(),
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    link: text('link').notNull(),
    state: jsonb('state').$type<Record<string, unknown>>().notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.keyHash] })],
);

/** A public link's saved answers behind a resume link (migration 0730; save-public-draft.ts). */
export const publicLinkDrafts = pgTable(
  'public_link_drafts',
  {
    tokenHash: text('token_hash').notNull(),
    companyId: companyId(),
    formId: uuid('form_id').notNull(),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
    sectionIndex: integer('section_index').notNull(),
    prefill: jsonb('prefill').$type<Record<string, unknown>>().notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.tokenHash] })],
);
