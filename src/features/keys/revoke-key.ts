import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { apiKeys } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid } from '../../lib/ids.js';
import { notFound } from '../../lib/errors.js';
import { publicKey } from './create-key.js';

/** Revokes a key of the company (idempotent: a revoked key keeps its first revocation time). */
export async function revokeKey(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; id: string }) {
  const { companyId, id } = input;
  if (!isUuid(id)) throw notFound('API key');
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${deps.clock.now().toISOString()}::timestamptz)` })
    .where(and(eq(apiKeys.companyId, companyId), eq(apiKeys.id, id)))
    .returning();
  if (!row) throw notFound('API key');
  return publicKey(row);
}

