import { desc, eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../db/database.js';
import { apiKeys } from '../../db/schema.js';
import { publicKey } from './create-key.js';

export async function listKeys(db: DbOrTx, _deps: NoDeps, input: { companyId: string }) {
  const { companyId } = input;
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.companyId, companyId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(publicKey);
}
