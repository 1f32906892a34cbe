import { sql } from 'drizzle-orm';
import type { CountryCode } from 'libphonenumber-js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import { offsetOf, type OffsetPage, type OffsetRequest } from '../../lib/pagination.js';
import { noDeps, type NoDeps } from '../../lib/service.js';
import { sqlArray } from '../../lib/sql-array.js';
import { normaliseEmail, normalisePhone } from '../../lib/normalise-contact.js';
import { readCompanySettings } from '../companies/index.js';
import { SUPPRESSION_REASONS, type SuppressionReason } from './reasons.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

export type Suppression = {
  address: string;
  reason: SuppressionReason;
  createdAt: string;
};

/** The stored form of an address: a normalised e-mail or an E.164 phone; VALIDATION_ERROR otherwise. */
export function suppressionAddress(given: { email?: string; phone?: string }, defaultCountry: CountryCode): string {
  const address = given.email !== undefined ? normaliseEmail(given.email) : given.phone !== undefined ? normalisePhone(given.phone, defaultCountry) : null;
  if (!address) throw validationError([{ path: given.email !== undefined ? 'email' : 'phone', code: 'invalid_value', message: 'Give a valid e-mail address or phone number.' }]);
  return address;
}

/** One contact given by e-mail or by phone (national numbers read in the company's default country), as stored. */
export async function contactAddress(db: DbOrTx, _deps: NoDeps, input: { companyId: string; email?: string; phone?: string }): Promise<string> {
  const { companyId, email, phone } = input;
  if ((email === undefined) === (phone === undefined)) {
    throw validationError([{ path: 'email', code: 'required', message: 'Give exactly one of an e-mail address and a phone number.' }]);
  }
  const { defaultCountry } = await readCompanySettings(db, noDeps, { companyId });
  return suppressionAddress({ email, phone }, defaultCountry);
}

/**
 * Adds addresses to the company's suppression list; an address already there keeps its first
 * reason (the earliest cause is the one to respect). One statement for any number; answers how
 * many were new.
 */
export async function suppress(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; addresses: readonly string[]; reason: SuppressionReason }): Promise<number> {
  const { companyId, addresses, reason } = input;
  if (addresses.length === 0) return 0;
  const result = await db.execute(sql`
    INSERT INTO suppressions (company_id, address, reason, created_at)
    SELECT ${companyId}, a, ${reason}, ${deps.clock.now()} FROM unnest(${sqlArray('text', addresses)}) a
    ON CONFLICT DO NOTHING`);
  return result.rowCount ?? 0;
}

/** Suppresses one contact by hand (the panel, the CLI): its stored address, and whether it was new. */
export async function addSuppression(
  db: DbOrTx,
  deps: { clock: Clock },
  input: { companyId: string; email?: string; phone?: string; reason: SuppressionReason },
): Promise<{ address: string; reason: SuppressionReason; added: boolean }> {
  const { companyId, reason } = input;
  if (!SUPPRESSION_REASONS.includes(reason)) throw validationError([{ path: 'reason', code: 'invalid_value', message: `must be one of ${SUPPRESSION_REASONS.join(', ')}` }]);
  const address = await contactAddress(db, noDeps, input);
  return { address, reason, added: (await suppress(db, deps, { companyId, addresses: [address], reason })) > 0 };
}

/** LIKE's wildcards and escape taken literally: a search for "a_b" finds "a_b" only. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The company's suppressed addresses, newest first; `search` keeps those containing it (any case);
 * `page`: one page of them (all when omitted) with the total matching.
 */
export async function listSuppressions(
  db: DbOrTx,
  _deps: NoDeps,
  input: { companyId: string; search?: string; page?: OffsetRequest },
): Promise<OffsetPage<Suppression>> {
  const { companyId, page } = input;
  const search = input.search?.trim();
  const where = sql`company_id = ${companyId}${search ? sql` AND address ILIKE ${`%${likeLiteral(search)}%`}` : sql``}`;
  const { rows } = await db.execute<Suppression>(sql`
    SELECT address, reason, ${isoTimestamp(sql`created_at`)} AS "createdAt"
      FROM suppressions WHERE ${where} ORDER BY created_at DESC, address
      ${page ? sql`LIMIT ${page.limit} OFFSET ${offsetOf(page)}` : sql``}`);
  if (!page) return { items: rows, total: rows.length };
  const { rows: count } = await db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM suppressions WHERE ${where}`);
  return { items: rows, total: count[0].total };
}

export async function unsuppress(db: DbOrTx, _deps: NoDeps, input: { companyId: string; address: string }): Promise<boolean> {
  const { companyId, address } = input;
  const { rows } = await db.execute(sql`DELETE FROM suppressions WHERE company_id = ${companyId} AND address = ${address} RETURNING 1`);
  return rows.length > 0;
}
