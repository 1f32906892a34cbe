import { sql } from 'drizzle-orm';
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

const isoMs = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The columns of InviteRow, for invites aliased i. */
export const INVITE_COLUMNS = sql.raw(`i.id, i.company_id AS "companyId", i.form_id AS "formId", i.token, i.status, i.email, i.phone, i.name,
  i.external_id AS "externalId", i.dims, i.batch_id AS "batchId", i.channel, i.send_batch_id AS "sendBatchId",
  ${isoMs('i.expires_at')} AS "expiresAt", ${isoMs('i.created_at')} AS "createdAt"`);

const FINAL: readonly InviteStatus[] = ['responded', 'revoked', 'expired'];

/** effectiveStatus (contract decisions): expired once expiresAt has passed, unless responded or revoked. */
export function effectiveStatus(row: Pick<InviteRow, 'status' | 'expiresAt'>, now: Date): InviteStatus {
  return row.expiresAt !== null && new Date(row.expiresAt) <= now && !FINAL.includes(row.status) ? 'expired' : row.status;
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
