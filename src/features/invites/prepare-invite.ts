import type { CountryCode } from 'libphonenumber-js';
import type { DbOrTx } from '../../db/database.js';
import type { FieldError } from '../../lib/errors.js';
import { canonicalDims, type DeclaredDim } from '../dims/canonical-dims.js';
import { normaliseContact } from './normalise-contact.js';
import type { CreateInviteInput } from './schemas.js';

/** What every new invite is checked against: the form's invite dims, the company's country, the clock. */
export interface InviteRules {
  companyId: string;
  inviteDims: readonly DeclaredDim[];
  defaultCountry: CountryCode;
  now: Date;
}

/** An invite's stored values, normalised and checked, before the unique indexes judge the contact. */
export interface PreparedInvite {
  email: string | null;
  phone: string | null;
  name: string | null;
  externalId: string | null;
  dims: Record<string, string>;
  orgUnitId: string | null;
  orgPath: string | null;
  expiresAt: string | null;
}

function expiryErrors(expiresAt: string | undefined, now: Date): FieldError[] {
  if (expiresAt === undefined || new Date(expiresAt) > now) return [];
  return [{ path: 'expiresAt', code: 'too_small', message: 'expiresAt must be in the future.' }];
}

/**
 * The one normalisation of a new invite, shared by POST /invites and the bulk import: contact
 * trimmed, lower-cased and E.164, dims canonical (entity ids), expiry in the future.
 */
export async function prepareInvite(db: DbOrTx, rules: InviteRules, input: CreateInviteInput): Promise<{ ok: true; invite: PreparedInvite } | { ok: false; errors: FieldError[] }> {
  const contact = normaliseContact(input, rules.defaultCountry);
  const dims = await canonicalDims(db, rules.companyId, rules.inviteDims, input.dims);
  const errors = [...(contact.ok ? [] : contact.errors), ...expiryErrors(input.expiresAt, rules.now), ...(dims.ok ? [] : dims.errors)];
  if (errors.length > 0 || !contact.ok || !dims.ok) return { ok: false, errors };
  return {
    ok: true,
    invite: {
      email: contact.email,
      phone: contact.phone,
      name: input.name?.trim() || null,
      externalId: input.externalId?.trim() || null,
      dims: dims.dims,
      orgUnitId: dims.orgUnit?.id ?? null,
      orgPath: dims.orgUnit?.orgPath ?? null,
      expiresAt: input.expiresAt ?? null,
    },
  };
}
