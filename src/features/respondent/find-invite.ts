import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies, forms, invites } from '../../platform/db/schema.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { companySettings, logoPath, type Locale } from '../companies/index.js';
import { formIsClosed, type FormRecord } from '../forms/index.js';
import { effectiveStatus, type InviteRow } from '../invites/index.js';

export type InviteRecord = typeof invites.$inferSelect;

/** The company as the respondent surface shows it (never its settings or keys). */
export interface RespondentCompany {
  id: string;
  name: string;
  slug: string;
  /** The company's language; null: not set (a new company's). */
  locale: Locale | null;
  /** The company's colour and logo (its pages' path) on its pages and e-mail; null: none set. */
  brand: { color: string | null; logoUrl: string | null };
}

export interface InviteContext {
  invite: InviteRecord;
  form: FormRecord;
  company: RespondentCompany;
}

/** Invite tokens are 32 random bytes in base64url (43 characters); anything else matches nothing. */
export const TOKEN_RE = /^[A-Za-z0-9_-]{43,100}$/;

export function respondentCompany(row: typeof companies.$inferSelect): RespondentCompany {
  const settings = companySettings(row.settings);
  const brand = { color: settings.brandColor, logoUrl: settings.logo === null ? null : logoPath(row.id, settings.logo) };
  return { id: row.id, name: row.name, slug: row.slug, locale: settings.locale, brand };
}

/** The invite of a personal link with its form and company; an unknown token is NOT_FOUND, no hint given. */
export async function findInviteByToken(db: DbOrTx, token: string): Promise<InviteContext> {
  if (!TOKEN_RE.test(token)) throw notFound('Invite');
  const [row] = await db
    .select({ invite: invites, form: forms, company: companies })
    .from(invites)
    .innerJoin(forms, and(eq(forms.companyId, invites.companyId), eq(forms.id, invites.formId)))
    .innerJoin(companies, eq(companies.id, invites.companyId))
    .where(eq(invites.token, token))
    .limit(1);
  if (!row) throw notFound('Invite');
  return { invite: row.invite, form: row.form, company: respondentCompany(row.company) };
}

/** The invite row as the invite.* event builder reads it. */
export function inviteRow(record: InviteRecord): InviteRow {
  return {
    id: record.id,
    companyId: record.companyId,
    formId: record.formId,
    token: record.token,
    status: record.status,
    email: record.email,
    phone: record.phone,
    name: record.name,
    externalId: record.externalId,
    dims: record.dims,
    batchId: record.batchId,
    channel: record.channel,
    sendBatchId: record.sendBatchId,
    expiresAt: record.expiresAt?.toISOString() ?? null,
    createdAt: record.createdAt.toISOString(),
  };
}

/** Revoked, or expired by the clock even before the sweep stored it. */
export function isGone(invite: InviteRecord, now: Date): boolean {
  const status = effectiveStatus(inviteRow(invite), now);
  return status === 'revoked' || status === 'expired';
}

export const inviteGone = () => new ApiError('INVITE_GONE', 'This invitation link is no longer valid.');
export const formClosed = () => new ApiError('FORM_CLOSED', 'This form is closed and accepts no more answers.');
export const alreadyResponded = () => new ApiError('ALREADY_RESPONDED', 'This invitation has already been answered.');

/**
 * Refuses a write on an invite that cannot take one, in the order the respondent sees it:
 * answered, then revoked or expired, then a closed form.
 */
export function assertWritable({ invite, form }: Pick<InviteContext, 'invite' | 'form'>, now: Date): void {
  if (invite.status === 'responded') throw alreadyResponded();
  if (isGone(invite, now)) throw inviteGone();
  if (formIsClosed(form, now)) throw formClosed();
}

/** A conditional statement found the invite no longer writable (changed since it was read): the refusal it earns now. */
export async function refuseChanged(db: DbOrTx, token: string, now: Date): Promise<never> {
  assertWritable(await findInviteByToken(db, token), now);
  throw inviteGone();
}
