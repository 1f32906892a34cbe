import { sql } from 'drizzle-orm';
import type { Tx } from './database.js';

/**
 * Serialises transactions working on the same `key` within `scope` (for example one company's
 * entity import) until the transaction ends. Two 32-bit hashes: this key space does not overlap
 * with the single 64-bit keys of the migration lock.
 */
export async function lockForTransaction(tx: Tx, scope: string, key: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`);
}
