import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError } from '../../lib/errors.js';
import { sqlArray } from '../../lib/sql-array.js';

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

export type IdempotencyClaim = IdempotencyKeyRef & { fingerprint: Buffer };

/** claimed: this request runs and records its answer; replay: the first request's answer. */
export type ClaimOutcome = { kind: 'claimed' } | { kind: 'replay'; answer: StoredAnswer };

type KeyRow = {
  company_id: string;
  api_key_id: string;
  idem_key: string;
  fingerprint: Buffer;
  status_code: number | null;
  content_type: string | null;
  body: Buffer | null;
};

const at = (from: Date, ms: number) => new Date(from.getTime() + ms).toISOString();
export const refId = (ref: IdempotencyKeyRef) => `${ref.companyId}\n${ref.apiKeyId}\n${ref.key}`;

/** The refs as three parallel arrays for `unnest`: one statement whatever the batch's size. */
export function refColumns(refs: readonly IdempotencyKeyRef[]) {
  return sql`${sqlArray('uuid', refs.map((r) => r.companyId))}, ${sqlArray('uuid', refs.map((r) => r.apiKeyId))}, ${sqlArray('text', refs.map((r) => r.key))}`;
}

/** What a key already held tells a request that did not claim it. */
function outcomeOfHeld(row: KeyRow, claim: IdempotencyClaim): ClaimOutcome | ApiError {
  if (!row.fingerprint.equals(claim.fingerprint)) {
    return new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request (route or body); use a new key for a new request.');
  }
  if (row.status_code === null || row.body === null) {
    return new ApiError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still running; repeat it once that one has answered.');
  }
  return { kind: 'replay', answer: { statusCode: row.status_code, contentType: row.content_type, body: row.body } };
}

/**
 * Claims the idempotency keys of concurrent requests in two statements whatever their number,
 * decided by the database (ON CONFLICT) so that of any number of requests with one key exactly
 * one runs, in this process or another. A key whose answer expired, or whose claim was abandoned,
 * is claimed afresh. Otherwise: another body (or route) is IDEMPOTENCY_KEY_REUSED, a first request
 * still running IDEMPOTENCY_IN_PROGRESS, a finished one its stored answer. Returns one outcome
 * (or the error to answer) per claim, in order; a key twice in one batch is claimed once.
 */
export async function claimIdempotencyKeys(db: Db, deps: { clock: Clock }, input: { claims: readonly IdempotencyClaim[] }): Promise<(ClaimOutcome | ApiError)[]> {
  const now = deps.clock.now();
  const outcomes = new Array<ClaimOutcome | ApiError | undefined>(input.claims.length);
  // A row pruned between the two statements is claimed on the second pass.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const open = input.claims.map((claim, i) => ({ claim, i })).filter(({ i }) => outcomes[i] === undefined);
    if (open.length === 0) break;
    const first = [...new Map(open.map(({ claim }) => [refId(claim), claim])).values()];
    const claimed = await db.execute<{ company_id: string; api_key_id: string; idem_key: string }>(sql`
      INSERT INTO idempotency_keys (company_id, api_key_id, idem_key, fingerprint, created_at, locked_until, expires_at)
      SELECT c, a, k, f, ${now.toISOString()}::timestamptz, ${at(now, IDEMPOTENCY_LEASE_MS)}::timestamptz, ${at(now, IDEMPOTENCY_TTL_MS)}::timestamptz
        FROM unnest(${refColumns(first)}, ${sqlArray('bytea', first.map((c) => c.fingerprint))}) AS v(c, a, k, f)
      ON CONFLICT (company_id, api_key_id, idem_key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, created_at = EXCLUDED.created_at, locked_until = EXCLUDED.locked_until,
            expires_at = EXCLUDED.expires_at, status_code = NULL, content_type = NULL, body = NULL
        WHERE idempotency_keys.expires_at <= ${now.toISOString()}::timestamptz
           OR (idempotency_keys.status_code IS NULL AND idempotency_keys.locked_until <= ${now.toISOString()}::timestamptz)
      RETURNING company_id, api_key_id, idem_key`);
    const won = new Set(claimed.rows.map((r) => refId({ companyId: r.company_id, apiKeyId: r.api_key_id, key: r.idem_key })));
    const winners = new Map(first.filter((c) => won.has(refId(c))).map((c) => [refId(c), c]));
    const held = open.filter(({ claim }) => winners.get(refId(claim)) !== claim);
    for (const { claim, i } of open) if (winners.get(refId(claim)) === claim) outcomes[i] = { kind: 'claimed' };
    if (held.length === 0) break;
    const rows = await db.execute<KeyRow>(sql`
      SELECT k.company_id, k.api_key_id, k.idem_key, k.fingerprint, k.status_code, k.content_type, k.body
        FROM idempotency_keys k JOIN unnest(${refColumns(held.map(({ claim }) => claim))}) AS v(c, a, k2)
          ON k.company_id = v.c AND k.api_key_id = v.a AND k.idem_key = v.k2`);
    const byRef = new Map(rows.rows.map((row) => [refId({ companyId: row.company_id, apiKeyId: row.api_key_id, key: row.idem_key }), row]));
    for (const { claim, i } of held) {
      const row = byRef.get(refId(claim));
      if (row) outcomes[i] = outcomeOfHeld(row, claim);
    }
  }
  return outcomes.map(
    (outcome) => outcome ?? new ApiError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is changing state; repeat it.'),
  );
}

/** One request's claim (claimIdempotencyKeys for a batch of one): its outcome, or the refusal thrown. */
export async function claimIdempotencyKey(db: Db, deps: { clock: Clock }, input: IdempotencyClaim): Promise<ClaimOutcome> {
  const [outcome] = await claimIdempotencyKeys(db, deps, { claims: [input] });
  if (outcome instanceof ApiError) throw outcome;
  return outcome;
}
