import { sql, type SQL } from 'drizzle-orm';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';
import { FINAL_STATUSES } from './lifecycle/transitions.js';
import type { InviteStatus, InviteView } from './schemas.js';

/** An invite row as the services read it (INVITE_COLUMNS). */
export type InviteRow = {
  id: string;
  companyId: string;
  formId: string;
  token: string;
  status: InviteStatus;
  email: string | null;
  phone: string | null;
  name: string | null;
  externalId: string | null;
  dims: Record<string, string>;
  batchId: string | null;
  channel: 'email' | 'whatsapp' | null;
  sendBatchId: string | null;
  /** ISO 8601 UTC with milliseconds, formatted by Postgres (the same instant as stored). */
  expiresAt: string | null;
  createdAt: string;
};

/**
 * The stored status of an invite aliased i. `queued` is stored with the messages: a send only
 * inserts them (rewriting every selected invite row cost a 100,000-invite send most of its time),
 * so a created or failed invite with a pending message is queued. Every other status is the
 * row's, moved by the lifecycle (lifecycle/move-invites.ts). (Rows a send
 * stored as `queued` before that keep it until their message is recorded.)
 */
const PENDING = `EXISTS (SELECT FROM invite_messages pm WHERE pm.company_id = i.company_id AND pm.invite_id = i.id AND pm.status = 'pending')`;
const STORED_STATUS = `CASE WHEN i.status IN ('created', 'failed') AND ${PENDING} THEN 'queued' ELSE i.status END`;
export const INVITE_STATUS = sql.raw(STORED_STATUS);

/**
 * A condition on invites aliased i: its stored status (INVITE_STATUS) is one of `statuses`.
 * Written per status rather than as INVITE_STATUS = ANY(...), so that only created and failed
 * invites are looked up in the messages (an anti-join for created or failed alone).
 */
export function inviteStatusIn(statuses: readonly InviteStatus[]): SQL {
  const pending = sql.raw(PENDING);
  const conditions = [...new Set(statuses)].map((status) => {
    if (status === 'queued') return sql`(i.status = 'queued' OR (i.status IN ('created', 'failed') AND ${pending}))`;
    if (status === 'created' || status === 'failed') return sql`(i.status = ${status} AND NOT ${pending})`;
    return sql`i.status = ${status}`;
  });
  return sql`(${sql.join(conditions, sql` OR `)})`;
}

/** The invite's newest message (ids are time-ordered), pending or not. */
const newestMessage = (column: string) =>
  `(SELECT lm.${column} FROM invite_messages lm WHERE lm.company_id = i.company_id AND lm.invite_id = i.id ORDER BY lm.id DESC LIMIT 1)`;

const inviteColumns = (channel: string, sendBatchId: string) =>
  sql`${sql.raw(`i.id, i.company_id AS "companyId", i.form_id AS "formId", i.token, ${STORED_STATUS} AS status,
  i.email, i.phone, i.name, i.external_id AS "externalId", i.dims, i.batch_id AS "batchId",
  ${channel} AS channel, ${sendBatchId} AS "sendBatchId"`)},
  ${isoTimestamp(sql`i.expires_at`)} AS "expiresAt", ${isoTimestamp(sql`i.created_at`)} AS "createdAt"`;

/**
 * The columns of InviteRow, for invites aliased i, with the channel and send batch the row holds:
 * those of the message recorded last (sent or failed), which the record step, receipts and the
 * respondent's events report. The list does not show them.
 */
export const INVITE_COLUMNS = inviteColumns('i.channel', 'i.send_batch_id');

/**
 * INVITE_COLUMNS with the channel and batch of the invite's newest message, recorded or still
 * pending: what revoke and expiry report, since the send they cancel may not have left yet.
 */
export const INVITE_COLUMNS_NEWEST_SEND = inviteColumns(newestMessage('channel'), newestMessage('batch_id'));

/** effectiveStatus (contract decisions): expired once expiresAt has passed, unless responded or revoked. */
export function effectiveStatus(row: Pick<InviteRow, 'status' | 'expiresAt'>, now: Date): InviteStatus {
  return row.expiresAt !== null && new Date(row.expiresAt) <= now && !FINAL_STATUSES.includes(row.status) ? 'expired' : row.status;
}

export function inviteUrl(formUrl: string, token: string): string {
  return `${formUrl}/${token}`;
}

export function inviteView(row: InviteRow, deps: { formUrl: string; now: Date }): InviteView {
  return {
    id: row.id,
    token: row.token,
    url: inviteUrl(deps.formUrl, row.token),
    status: row.status,
    effectiveStatus: effectiveStatus(row, deps.now),
    email: row.email,
    phone: row.phone,
    name: row.name,
    externalId: row.externalId,
    expiresAt: row.expiresAt,
    dims: row.dims,
    batchId: row.batchId,
    createdAt: row.createdAt,
  };
}
