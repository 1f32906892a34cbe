import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { UploadLimits } from '../../platform/config.js';
import type { Tx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError } from '../../lib/errors.js';

export interface UploadBudgetDeps {
  clock: Clock;
  config: { secretKey: string; uploadLimits: UploadLimits };
}

export interface UploadBudgetInput {
  companyId: string;
  formId: string;
  /** sourceKeyOf(the client address) */
  sourceKey: string;
  size: number;
}

const HOUR_MS = 3_600_000;

/** The uploader's address as a keyed hash: enough to count its uploads, nothing to read back. */
export function sourceKeyOf(secretKey: string, address: string): string {
  return createHmac('sha256', secretKey).update(`quorum upload source\n${address}`).digest('base64url').slice(0, 32);
}

type Usage = {
  sourceFiles: number;
  sourceBytes: number;
  sourceOldest: Date | null;
  formFiles: number;
  formBytes: number;
  formOldest: Date | null;
  companyBytes: number;
};

/** The hourly refusal; retry-after: when the window's oldest upload leaves it. */
function tooMany(scope: 'address' | 'form', oldest: Date | null, now: Date): ApiError {
  const seconds = oldest === null ? 3600 : Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000));
  const what = scope === 'address' ? 'from this address' : 'to this form';
  return new ApiError('RATE_LIMITED', `Too many files ${what} in the last hour. Retry in ${seconds} s.`, { scope }, { 'retry-after': String(seconds) });
}

/**
 * Refuses an upload that would pass a limit: files or bytes per hour from one address or to one
 * form (429 RATE_LIMITED with retry-after), or the company's storage quota (413). Advisory locks
 * on the company and the address, held until the caller's transaction ends, make concurrent
 * uploads count one after the other, so a burst cannot slip past a limit between check and insert.
 */
export async function checkUploadBudget(tx: Tx, deps: UploadBudgetDeps, input: UploadBudgetInput): Promise<void> {
  const now = deps.clock.now();
  const hourAgo = new Date(now.getTime() - HOUR_MS).toISOString();
  // The company's lock always first, so two uploads never wait on each other in opposite orders.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`quorum upload company ${input.companyId}`}, 0))`);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`quorum upload source ${input.sourceKey}`}, 0))`);
  // A new statement after the locks: its snapshot holds every upload committed before them.
  const { rows } = await tx.execute<Usage>(sql`
    SELECT s.files AS "sourceFiles", s.bytes AS "sourceBytes", s.oldest AS "sourceOldest",
           f.files AS "formFiles", f.bytes AS "formBytes", f.oldest AS "formOldest", c.bytes AS "companyBytes"
      FROM (SELECT count(*)::int AS files, coalesce(sum(size), 0)::float8 AS bytes, min(created_at) AS oldest
              FROM respondent_uploads WHERE source_key = ${input.sourceKey} AND created_at > ${hourAgo}::timestamptz) s,
           (SELECT count(*)::int AS files, coalesce(sum(size), 0)::float8 AS bytes, min(created_at) AS oldest
              FROM respondent_uploads WHERE company_id = ${input.companyId} AND form_id = ${input.formId} AND created_at > ${hourAgo}::timestamptz) f,
           (SELECT coalesce(sum(size), 0)::float8 AS bytes FROM respondent_uploads WHERE company_id = ${input.companyId}) c`);
  const usage = rows[0];
  const limits = deps.config.uploadLimits;
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  if (usage.sourceFiles + 1 > limits.filesPerAddressPerHour || usage.sourceBytes + input.size > limits.bytesPerAddressPerHour) {
    throw tooMany('address', date(usage.sourceOldest), now);
  }
  if (usage.formFiles + 1 > limits.filesPerFormPerHour || usage.formBytes + input.size > limits.bytesPerFormPerHour) {
    throw tooMany('form', date(usage.formOldest), now);
  }
  if (usage.companyBytes + input.size > limits.bytesPerCompany) {
    throw new ApiError('PAYLOAD_TOO_LARGE', 'The storage for uploaded files of this organisation is full.', { quotaBytes: limits.bytesPerCompany });
  }
}
