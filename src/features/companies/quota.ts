import { sql, type SQL } from 'drizzle-orm';
import { noDeps, type NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { ApiError } from '../../lib/errors.js';

// A company's monthly message quota: the limit is its setting (monthlyQuota), the count is
// quota_usage. Sending invites reserves units; a message that leaves or fails for good settles them.

/** The quota month of an instant: its UTC calendar month, YYYY-MM. */
export function quotaPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

export interface QuotaStatus {
  limit: number;
  used: number;
  reserved: number;
  period: string;
}

export async function quotaStatus(db: DbOrTx, _deps: NoDeps, input: { companyId: string; limit: number; period: string }): Promise<QuotaStatus> {
  const { companyId, limit, period } = input;
  const { rows } = await db.execute<{ used: number; reserved: number }>(
    sql`SELECT used, reserved FROM quota_usage WHERE company_id = ${companyId} AND period = ${period}`,
  );
  return { limit, used: rows[0]?.used ?? 0, reserved: rows[0]?.reserved ?? 0, period };
}

/**
 * The statement reserving `requested` units of the month (an SQL integer: a literal, or a count
 * taken in the same statement), all or none, as one conditional upsert: the row lock orders
 * concurrent sends, and each re-checks used + reserved + n <= limit on the row as the one before
 * it left it, so no interleaving over-reserves. Returns the row when the units were reserved,
 * nothing when they do not fit (or none were requested).
 */
export function reservationSql(companyId: string, limit: number, period: string, requested: SQL): SQL {
  return sql`INSERT INTO quota_usage AS q (company_id, period, reserved)
    SELECT ${companyId}, ${period}, r.n FROM (SELECT (${requested})::int AS n) AS r WHERE r.n > 0 AND r.n <= ${limit}
    ON CONFLICT (company_id, period) DO UPDATE SET reserved = q.reserved + excluded.reserved
     WHERE q.used + q.reserved + excluded.reserved <= ${limit}
    RETURNING q.used, q.reserved`;
}

/** QUOTA_EXCEEDED with the consumption the refused caller saw. */
export async function quotaExceeded(db: DbOrTx, companyId: string, limit: number, period: string, requested: number): Promise<ApiError> {
  const status = await quotaStatus(db, noDeps, { companyId, limit, period });
  return new ApiError('QUOTA_EXCEEDED', `The monthly message quota of ${limit} has room for ${Math.max(0, limit - status.used - status.reserved)} more; this send needs ${requested}.`, {
    ...status,
    requested,
  });
}

/** Reserves `requested` units of the month, all or none (reservationSql), or throws QUOTA_EXCEEDED. */
export async function reserveQuota(tx: DbOrTx, companyId: string, limit: number, period: string, requested: number): Promise<void> {
  if (requested === 0) return;
  const { rows } = await tx.execute(reservationSql(companyId, limit, period, sql`${requested}`));
  if (rows.length === 0) throw await quotaExceeded(tx, companyId, limit, period, requested);
}

/**
 * The UPDATE settling the reserved units of the messages of `messages` (a relation with
 * company_id and quota_period per message, such as a data-modifying CTE's name): `consume` moves
 * them to used (the message left, or failed for good), otherwise they are returned.
 */
export function quotaSettlement(messages: SQL, consume: boolean): SQL {
  return sql`UPDATE quota_usage q SET reserved = q.reserved - s.n${consume ? sql`, used = q.used + s.n` : sql``}
    FROM (SELECT company_id, quota_period, count(*)::int AS n FROM ${messages} GROUP BY 1, 2) AS s
   WHERE q.company_id = s.company_id AND q.period = s.quota_period`;
}

/**
 * Settles the reserved units of the messages `messages` yields (a statement returning
 * company_id and quota_period per message, possibly a data-modifying one such as an UPDATE ...
 * RETURNING; see quotaSettlement). One statement whatever the number of messages; answers how many.
 */
export async function settleQuota(tx: DbOrTx, _deps: NoDeps, input: { messages: SQL; consume: boolean }): Promise<number> {
  const { messages, consume } = input;
  const { rows } = await tx.execute<{ n: number }>(sql`
    WITH m AS (${messages}), u AS (${quotaSettlement(sql`m`, consume)})
    SELECT count(*)::int AS n FROM m`);
  return rows[0].n;
}
