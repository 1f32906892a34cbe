import { and, eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/harness.js';
import type { RouteFixtures } from '../../../test/route-fixtures.js';
import { createSubscription } from './create-subscription.js';
import { pingSubscription } from './ping-subscription.js';
import { webhookDeliveries } from './table.js';

async function subscription(t: TestApp, companyId: string): Promise<string> {
  const { subscription } = await createSubscription(t.ctx.db, t.ctx, { companyId, url: 'https://hooks.school.test/quorum' });
  return subscription.id;
}

const onSubscription = async (t: TestApp, companyId: string) => ({ params: { id: await subscription(t, companyId) } });

/** Records of the webhooks panel routes for the generated permission suite (test/route-fixtures.ts). */
export const panelRouteFixtures: RouteFixtures = {
  'PATCH /webhooks/{id}': async (t, companyId) => ({ ...(await onSubscription(t, companyId)), body: { types: ['ping'] } }),
  'POST /webhooks/{id}/enable': onSubscription,
  'POST /webhooks/{id}/disable': onSubscription,
  'DELETE /webhooks/{id}': onSubscription,
  'POST /webhooks/{id}/rotate-secret': onSubscription,
  'POST /webhooks/{id}/ping': onSubscription,
  'POST /webhooks/deliveries/{id}/resend': async (t, companyId) => {
    const subscriptionId = await subscription(t, companyId);
    await pingSubscription(t.ctx.db, t.ctx, { companyId, subscriptionId });
    const [delivery] = await t.ctx.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.subscriptionId, subscriptionId)));
    return { params: { id: delivery.id } };
  },
};
