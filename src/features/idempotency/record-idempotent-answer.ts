import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { NoDeps } from '../../lib/service.js';
import { sqlArray } from '../../lib/sql-array.js';
import { refColumns, type IdempotencyKeyRef, type StoredAnswer } from './claim-idempotency-key.js';
import { idempotencyKeys } from './table.js';

export type IdempotentAnswer = IdempotencyKeyRef & StoredAnswer;

/**
 * Stores the answers of requests that claimed their keys, in one statement for the batch:
 * repeats get them until the key expires. Only a claim still without an answer takes one.
 */
export async function recordIdempotentAnswers(db: Db, _deps: NoDeps, input: { answers: readonly IdempotentAnswer[] }): Promise<void> {
  const { answers } = input;
  if (answers.length === 0) return;
  await db.execute(sql`
    UPDATE idempotency_keys k SET status_code = v.s, content_type = v.t, body = v.b
      FROM unnest(${refColumns(answers)}, ${sqlArray('int', answers.map((a) => a.statusCode))},
                  ${sqlArray('text', answers.map((a) => a.contentType))}, ${sqlArray('bytea', answers.map((a) => a.body))}) AS v(c, a, key, s, t, b)
     WHERE k.company_id = v.c AND k.api_key_id = v.a AND k.idem_key = v.key AND k.status_code IS NULL`);
}

/**
 * Gives a claimed key up without an answer (the request failed on the server's side, 5xx): what
 * it did was rolled back, so a repeat must run again rather than replay the failure.
 */
export async function releaseIdempotencyKey(db: Db, _deps: NoDeps, input: IdempotencyKeyRef): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.companyId, input.companyId), eq(idempotencyKeys.apiKeyId, input.apiKeyId), eq(idempotencyKeys.idemKey, input.key), isNull(idempotencyKeys.statusCode)));
}
