import { desc, eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { publicSubscription } from './create-subscription.js';
import { webhookSubscriptions } from './table.js';

/** Newest first; every company's when companyId is null (operator view). */
export async function listSubscriptions(db: DbOrTx, _deps: NoDeps, input: { companyId: string | null }) {
  const { companyId } = input;
  const rows = await db
    .select()
    .from(webhookSubscriptions)
    .where(companyId ? eq(webhookSubscriptions.companyId, companyId) : undefined)
    .orderBy(desc(webhookSubscriptions.createdAt), desc(webhookSubscriptions.id));
  return rows.map(publicSubscription);
}
