import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { isUuid } from '../../lib/ids.js';
import { notFound } from '../../lib/errors.js';
import { findEnabledSubscription } from './find-subscription.js';
import { queueDeliveries } from './queue-deliveries.js';
import { webhookDeliveries } from './table.js';

/**
 * Sends a delivery's event to its subscription again as a NEW delivery, due now, with a fresh
 * retry schedule; the original keeps its own history (whatever its state, even pending).
 */
export async function resendDelivery(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; deliveryId: string }) {
  const { companyId, deliveryId } = input;
  if (!isUuid(deliveryId)) throw notFound('Webhook delivery');
  const [original] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, deliveryId)))
    .limit(1);
  if (!original) throw notFound('Webhook delivery');
  await findEnabledSubscription(db, companyId, original.subscriptionId);
  const id = deps.newId();
  const now = deps.clock.now().toISOString();
  await queueDeliveries(
    db,
    sql`SELECT ${id}::uuid AS id, ${companyId}::uuid AS company_id, ${original.subscriptionId}::uuid AS subscription_id,
          ${original.eventId}::uuid AS event_id, ${now}::timestamptz AS due_at`,
  );
  return { id, resendOf: original.id, subscriptionId: original.subscriptionId, eventId: original.eventId };
}
