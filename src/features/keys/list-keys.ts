import { and, desc, eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { apiKeys } from '../../platform/db/schema.js';
import { olderThan, type NewestFirstPosition } from '../../lib/newest-first.js';
import { publicKey } from './create-key.js';

/** The company's keys, newest first: all of them (the CLI), or `limit` after a position (pageKeys). */
export async function listKeys(db: DbOrTx, _deps: NoDeps, input: { companyId: string; limit?: number; after?: NewestFirstPosition | null }) {
  const { companyId } = input;
  const query = db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.companyId, companyId), olderThan(apiKeys.createdAt, apiKeys.id, input.after ?? null)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  const rows = await (input.limit === undefined ? query : query.limit(input.limit));
  return rows.map(publicKey);
}
