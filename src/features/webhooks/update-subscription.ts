import { and, eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/database.js';
import { isUuid } from '../../lib/ids.js';
import { notFound } from '../../lib/errors.js';
import { publicSubscription } from './create-subscription.js';
import { webhookSubscriptions } from './table.js';

type SubscriptionChange = PgUpdateSetSource<typeof webhookSubscriptions>;

/** Applies a change to one subscription of the company; another company's subscription is 404. */
export async function updateSubscription(db: DbOrTx, companyId: string, id: string, change: SubscriptionChange) {
  if (!isUuid(id)) throw notFound('Webhook subscription');
  const [row] = await db
    .update(webhookSubscriptions)
    .set(change)
    .where(and(eq(webhookSubscriptions.companyId, companyId), eq(webhookSubscriptions.id, id)))
    .returning();
  if (!row) throw notFound('Webhook subscription');
  return publicSubscription(row);
}
