import { sql } from 'drizzle-orm';
import type { CountryCode } from 'libphonenumber-js';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import { sqlArray } from '../../lib/sql-array.js';
import { normaliseEmail, normalisePhone } from '../../lib/normalise-contact.js';
import type { SuppressionReason } from './reasons.js';

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

/**
 * Adds addresses to the company's suppression list; an address already there keeps its first
 * reason (the earliest cause is the one to respect). One statement for any number.
 */
export async function suppress(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; addresses: readonly string[]; reason: SuppressionReason }): Promise<void> {
  const { companyId, addresses, reason } = input;
  if (addresses.length === 0) return;
  await db.execute(sql`
    INSERT INTO suppressions (company_id, address, reason, created_at)
    SELECT ${companyId}, a, ${reason}, ${deps.clock.now()} FROM unnest(${sqlArray('text', addresses)}) a
    ON CONFLICT DO NOTHING`);
}

export async function listSuppressions(db: DbOrTx, _deps: NoDeps, input: { companyId: string }): Promise<Suppression[]> {
  const { companyId } = input;
  const { rows } = await db.execute<Suppression>(sql`
    SELECT address, reason, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
      FROM suppressions WHERE company_id = ${companyId} ORDER BY created_at DESC, address`);
  return rows;
}

export async function unsuppress(db: DbOrTx, _deps: NoDeps, input: { companyId: string; address: string }): Promise<boolean> {
  const { companyId, address } = input;
  const { rows } = await db.execute(sql`DELETE FROM suppressions WHERE company_id = ${companyId} AND address = ${address} RETURNING 1`);
  return rows.length > 0;
}
