import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { noDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError, notFound, validationError } from '../../lib/errors.js';
import { findForm, type FormRecord } from '../forms/index.js';
import { readCompanySettings } from '../companies/index.js';
import { prepareInvite, type InviteRules } from './prepare-invite.js';
import { INVITE_COLUMNS, type InviteRow } from './invite-view.js';
import type { CreateInviteInput } from './schemas.js';

/** 32 random bytes, base64url (contract decisions): unguessable, unrelated to the id. */
export function newInviteToken(): string {
  return newInviteTokens(1)[0];
}

const TOKEN_BYTES = 32;
/** `count` tokens from one draw of randomness: a bulk import pays one call into the kernel per chunk, not per row. */
export function newInviteTokens(count: number): string[] {
  const bytes = randomBytes(TOKEN_BYTES * count);
  return Array.from({ length: count }, (_, i) => bytes.toString('base64url', i * TOKEN_BYTES, (i + 1) * TOKEN_BYTES));
}

/** The rules of new invites on this form: its dims with source "invite", the company's country. */
export async function inviteRules(db: DbOrTx, companyId: string, form: FormRecord, now: Date): Promise<InviteRules> {
  const { defaultCountry } = await readCompanySettings(db, noDeps, { companyId });
  return { companyId, inviteDims: form.dims.filter((dim) => dim.source === 'invite'), defaultCountry, now };
}

/**
 * Creates one invite: nothing is sent and no quota used. The contact is normalised before the
 * unique indexes judge it, and ON CONFLICT DO NOTHING turns their verdict into 409
 * DUPLICATE_INVITE, so of any number of concurrent creations for one contact exactly one wins.
 */
export async function createInvite(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; formId: string } & CreateInviteInput): Promise<InviteRow> {
  const { companyId, formId } = input;
  const form = await findForm(db, deps, { companyId, id: formId });
  if (!form) throw notFound('Form');
  const now = deps.clock.now();
  const prepared = await prepareInvite(db, await inviteRules(db, companyId, form, now), input);
  if (!prepared.ok) throw validationError(prepared.errors);
  const invite = prepared.invite;
  const { rows } = await db.execute<InviteRow>(sql`
    INSERT INTO invites AS i (id, company_id, form_id, token, email, phone, name, external_id, dims, org_unit_id, org_path,
                              expires_at, status_changed_at, created_at)
    VALUES (${deps.newId()}, ${companyId}, ${form.id}, ${newInviteToken()}, ${invite.email}, ${invite.phone},
            ${invite.name}, ${invite.externalId}, ${JSON.stringify(invite.dims)}::jsonb,
            ${invite.orgUnitId}, ${invite.orgPath}, ${invite.expiresAt}::timestamptz, ${now}, ${now})
    ON CONFLICT DO NOTHING
    RETURNING ${INVITE_COLUMNS}`);
  if (rows.length === 0) {
    throw new ApiError('DUPLICATE_INVITE', 'This contact (same e-mail or phone) already has an invite on this form; read GET /forms/{id}/invites and reuse its url.');
  }
  return rows[0];
}
