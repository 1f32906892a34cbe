import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { isUuid } from '../../lib/ids.js';
import { notFound } from '../../lib/errors.js';

/**
 * The company owning a subscription or delivery, for the operator CLI, which names records by id
 * alone; the services it then calls are scoped to that company like every other query.
 */
async function companyOf(db: DbOrTx, table: 'webhook_subscriptions' | 'webhook_deliveries', id: string, what: string): Promise<string> {
  if (!isUuid(id)) throw notFound(what);
  const result = await db.execute<{ company_id: string }>(sql`SELECT company_id FROM ${sql.identifier(table)} WHERE id = ${id}::uuid`);
  if (!result.rows[0]) throw notFound(what);
  return result.rows[0].company_id;
}

export const companyOfSubscription = (db: DbOrTx, id: string) => companyOf(db, 'webhook_subscriptions', id, 'Webhook subscription');
export const companyOfDelivery = (db: DbOrTx, id: string) => companyOf(db, 'webhook_deliveries', id, 'Webhook delivery');
