import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError } from '../../lib/errors.js';
import { idempotencyKeys } from './table.js';

/** How long a key and its answer are kept (contract decisions: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long a claim is held by a request that never recorded its answer (its process died):
 * past it, a repeat runs the request again instead of answering IDEMPOTENCY_IN_PROGRESS forever.
 */
export const IDEMPOTENCY_LEASE_MS = 5 * 60_000;

export interface IdempotencyKeyRef {
  companyId: string;
  apiKeyId: string;
  key: string;
}

export interface StoredAnswer {
  statusCode: number;
  contentType: string | null;
  body: Buffer;
}

const at = (from: Date, ms: number) => new Date(from.getTime() + ms).toISOString();

/** claimed: this request runs and records its answer; replay: the first request's answer. */
export type ClaimOutcome = { kind: 'claimed' } | { kind: 'replay'; answer: StoredAnswer };

/**
 * Claims an idempotency key for one request, decided by the database (ON CONFLICT) so that of
 * any number of concurrent requests with one key exactly one runs. A key whose answer expired,
 * or whose claim was abandoned, is claimed afresh. Otherwise: another request body (or route) is
 * IDEMPOTENCY_KEY_REUSED, a first request still running IDEMPOTENCY_IN_PROGRESS, and a finished
 * one gives its stored answer.
 */
export async function claimIdempotencyKey(
  db: Db,
  deps: { clock: Clock },
  input: IdempotencyKeyRef & { fingerprint: Buffer },
): Promise<ClaimOutcome> {
  const now = deps.clock.now();
  // A row pruned between the two statements is claimed on the second pass.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const claimed = await db.execute(sql`
      INSERT INTO idempotency_keys (company_id, api_key_id, idem_key, fingerprint, created_at, locked_until, expires_at)
      VALUES (${input.companyId}, ${input.apiKeyId}, ${input.key}, ${input.fingerprint}, ${now.toISOString()}::timestamptz,
              ${at(now, IDEMPOTENCY_LEASE_MS)}::timestamptz, ${at(now, IDEMPOTENCY_TTL_MS)}::timestamptz)
      ON CONFLICT (company_id, api_key_id, idem_key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, created_at = EXCLUDED.created_at, locked_until = EXCLUDED.locked_until,
            expires_at = EXCLUDED.expires_at, status_code = NULL, content_type = NULL, body = NULL
        WHERE idempotency_keys.expires_at <= ${now.toISOString()}::timestamptz
           OR (idempotency_keys.status_code IS NULL AND idempotency_keys.locked_until <= ${now.toISOString()}::timestamptz)
      RETURNING 1`);
    if (claimed.rows.length > 0) return { kind: 'claimed' };
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.companyId, input.companyId), eq(idempotencyKeys.apiKeyId, input.apiKeyId), eq(idempotencyKeys.idemKey, input.key)));
    if (!row) continue;
    if (!row.fingerprint.equals(input.fingerprint)) {
      throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request (route or body); use a new key for a new request.');
    }
    if (row.statusCode === null || row.body === null) {
      throw new ApiError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still running; repeat it once that one has answered.');
    }
    return { kind: 'replay', answer: { statusCode: row.statusCode, contentType: row.contentType, body: row.body } };
  }
  throw new ApiError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is changing state; repeat it.');
}
