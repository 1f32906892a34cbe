import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError, notFound, validationError, type FieldError } from '../../lib/errors.js';
import { canonicalDims } from '../dims/canonical-dims.js';
import { findForm } from '../forms/find-form.js';
import { readCompanySettings } from '../companies/company-settings.js';
import { normaliseContact } from './normalise-contact.js';
import { INVITE_COLUMNS, type InviteRow } from './invite-view.js';
import type { CreateInviteInput } from './schemas.js';

/** 32 random bytes, base64url (contract decisions): unguessable, unrelated to the id. */
export function newInviteToken(): string {
  return randomBytes(32).toString('base64url');
}

function expiryErrors(expiresAt: string | undefined, now: Date): FieldError[] {
  if (expiresAt === undefined || new Date(expiresAt) > now) return [];
  return [{ path: 'expiresAt', code: 'too_small', message: 'expiresAt must be in the future.' }];
}

/**
 * Creates one invite: nothing is sent and no quota used. The contact is normalised before the
 * unique indexes judge it, and ON CONFLICT DO NOTHING turns their verdict into 409
 * DUPLICATE_INVITE, so of any number of concurrent creations for one contact exactly one wins.
 */
export async function createInvite(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, companyId: string, formId: string, input: CreateInviteInput): Promise<InviteRow> {
  const form = await findForm(db, companyId, formId);
  if (!form) throw notFound('Form');
  const now = deps.clock.now();
  const settings = await readCompanySettings(db, companyId);
  const contact = normaliseContact(input, settings.defaultCountry);
  const dims = await canonicalDims(db, companyId, form.dims.filter((dim) => dim.source === 'invite'), input.dims);
  const errors = [...(contact.ok ? [] : contact.errors), ...expiryErrors(input.expiresAt, now), ...(dims.ok ? [] : dims.errors)];
  if (errors.length > 0 || !contact.ok || !dims.ok) throw validationError(errors);
  const { rows } = await db.execute<InviteRow>(sql`
    INSERT INTO invites AS i (id, company_id, form_id, token, email, phone, name, external_id, dims, org_unit_id, org_path,
                              expires_at, status_changed_at, created_at)
    VALUES (${deps.newId()}, ${companyId}, ${form.id}, ${newInviteToken()}, ${contact.email}, ${contact.phone},
            ${input.name?.trim() || null}, ${input.externalId?.trim() || null}, ${JSON.stringify(dims.dims)}::jsonb,
            ${dims.orgUnit?.id ?? null}, ${dims.orgUnit?.orgPath ?? null}, ${input.expiresAt ?? null}::timestamptz, ${now}, ${now})
    ON CONFLICT DO NOTHING
    RETURNING ${INVITE_COLUMNS}`);
  if (rows.length === 0) {
    throw new ApiError('DUPLICATE_INVITE', 'This contact (same e-mail or phone) already has an invite on this form; read GET /forms/{id}/invites and reuse its url.');
  }
  return rows[0];
}
