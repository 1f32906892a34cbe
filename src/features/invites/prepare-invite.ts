import type { CountryCode } from 'libphonenumber-js';
import { noDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { FieldError } from '../../lib/errors.js';
import { parseInstant } from '../../lib/date-time.js';
import { canonicalDimsResolved, dimEntityRefs, type DeclaredDim } from '../dims/index.js';
import { resolveEntityRefs, type EntityRef, type ResolvedEntities } from '../entities/index.js';
import { normaliseContact } from '../../lib/normalise-contact.js';
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
  if (expiresAt === undefined) return [];
  const at = parseInstant(expiresAt);
  if (at === null) return [{ path: 'expiresAt', code: 'invalid_format', message: 'expiresAt must be an RFC 3339 date-time with a zone.' }];
  if (at > now) return [];
  return [{ path: 'expiresAt', code: 'too_small', message: 'expiresAt must be in the future.' }];
}

export type PrepareResult = { ok: true; invite: PreparedInvite } | { ok: false; errors: FieldError[] };

/**
 * The one normalisation of a new invite, shared by POST /invites and the bulk import: contact
 * trimmed, lower-cased and E.164, dims canonical (entity ids), expiry in the future.
 */
export async function prepareInvite(db: DbOrTx, rules: InviteRules, input: CreateInviteInput): Promise<PrepareResult> {
  return prepareInviteResolved(rules, input, await resolveEntityRefs(db, noDeps, { companyId: rules.companyId, refs: inviteEntityRefs(rules, input) }));
}

/** The entity references of an invite's dims: a bulk import resolves a whole chunk's in one query. */
export function inviteEntityRefs(rules: InviteRules, input: CreateInviteInput): EntityRef[] {
  return dimEntityRefs(rules.inviteDims, input.dims);
}

/** prepareInvite with the dims' entity references already resolved. */
export function prepareInviteResolved(rules: InviteRules, input: CreateInviteInput, resolved: ResolvedEntities): PrepareResult {
  const contact = normaliseContact(input, rules.defaultCountry);
  const dims = canonicalDimsResolved(resolved, rules.inviteDims, input.dims);
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
      // Stored as the instant read above, so a leap second means here what it means everywhere.
      expiresAt: input.expiresAt === undefined ? null : parseInstant(input.expiresAt)!.toISOString(),
    },
  };
}
