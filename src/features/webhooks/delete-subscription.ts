import { and, eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { isUuid } from '../../lib/ids.js';
import { notFound } from '../../lib/errors.js';
import { publicSubscription } from './create-subscription.js';
import { webhookSubscriptions } from './table.js';

/** Deletes a subscription with its deliveries and their attempt log (cascade). */
export async function deleteSubscription(db: DbOrTx, _deps: NoDeps, input: { companyId: string; id: string }) {
  const { companyId, id } = input;
  if (!isUuid(id)) throw notFound('Webhook subscription');
  const [row] = await db
    .delete(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.companyId, companyId), eq(webhookSubscriptions.id, id)))
    .returning();
  if (!row) throw notFound('Webhook subscription');
  return publicSubscription(row);
}
