import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { isUuid } from '../../lib/ids.js';
import { notFound, validationError } from '../../lib/errors.js';
import { webhookSubscriptions } from './table.js';

/** One subscription of the company; another company's is 404 like a missing one. */
export async function findSubscription(db: DbOrTx, companyId: string, id: string) {
  if (!isUuid(id)) throw notFound('Webhook subscription');
  const [row] = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.companyId, companyId), eq(webhookSubscriptions.id, id)))
    .limit(1);
  if (!row) throw notFound('Webhook subscription');
  return row;
}

/** Deliveries queued for a disabled subscription would wait unseen until it is enabled: refuse instead. */
export async function findEnabledSubscription(db: DbOrTx, companyId: string, id: string) {
  const row = await findSubscription(db, companyId, id);
  if (!row.enabled) {
    throw validationError([{ path: 'subscription', code: 'invalid_value', message: `subscription ${id} is disabled; enable it first` }]);
  }
  return row;
}
