import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { NoDeps } from '../../lib/service.js';
import type { IdempotencyKeyRef, StoredAnswer } from './claim-idempotency-key.js';
import { idempotencyKeys } from './table.js';

const byRef = (ref: IdempotencyKeyRef) =>
  and(eq(idempotencyKeys.companyId, ref.companyId), eq(idempotencyKeys.apiKeyId, ref.apiKeyId), eq(idempotencyKeys.idemKey, ref.key));

/** Stores the answer of the request that claimed the key: repeats get it until the key expires. */
export async function recordIdempotentAnswer(db: Db, _deps: NoDeps, input: IdempotencyKeyRef & StoredAnswer): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ statusCode: input.statusCode, contentType: input.contentType, body: input.body })
    .where(and(byRef(input), isNull(idempotencyKeys.statusCode)));
}

/**
 * Gives a claimed key up without an answer (the request failed on the server's side, 5xx): what
 * it did was rolled back, so a repeat must run again rather than replay the failure.
 */
export async function releaseIdempotencyKey(db: Db, _deps: NoDeps, input: IdempotencyKeyRef): Promise<void> {
  await db.delete(idempotencyKeys).where(and(byRef(input), isNull(idempotencyKeys.statusCode)));
}
