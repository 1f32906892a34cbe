import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/harness.js';
import { emit, goalData, subscribe, verifyWebhook, webhookTestbed, type Receiver } from '../../../test/webhooks.js';
import type { DeliveryLoop } from './deliver-loop.js';
import { disableSubscription } from './disable-subscription.js';
import { listDeliveries } from './list-deliveries.js';
import { pingSubscription } from './ping-subscription.js';
import { DELIVERY_LOG_RETENTION_DAYS, pruneDeliveries } from './prune-deliveries.job.js';
import { recoverDeliveries } from './recover-deliveries.js';
import { resendDelivery } from './resend-delivery.js';

const bed = webhookTestbed();
let t: TestApp;
let receiver: Receiver;
let loop: DeliveryLoop;
beforeAll(() => ({ t, receiver, loop } = bed));

describe('ping', () => {
  it('goes to that one subscription, whatever types it selected, signed with its secret', async () => {
    const { company } = await t.tenant();
    const invitesOnly = await subscribe(t, company.id, receiver.url('/invites'), ['invite.sent']);
    await subscribe(t, company.id, receiver.url('/all'));
    const { event } = await pingSubscription(t.ctx.db, t.ctx, { companyId: company.id, subscriptionId: invitesOnly.subscription.id, message: 'hello?' });
    await loop.drain();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].path).toBe('/invites');
    expect(verifyWebhook(invitesOnly.secret, receiver.received[0], t.clock)).toEqual({ ...event, data: { message: 'hello?' } });
  });

  it('is refused for a disabled subscription, and is 404 for another company', async () => {
    const { company } = await t.tenant();
    const { subscription } = await subscribe(t, company.id, receiver.url());
    const intruder = await t.tenant();
    await expect(pingSubscription(t.ctx.db, t.ctx, { companyId: intruder.company.id, subscriptionId: subscription.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await disableSubscription(t.ctx.db, t.ctx, { companyId: company.id, id: subscription.id });
    await expect(pingSubscription(t.ctx.db, t.ctx, { companyId: company.id, subscriptionId: subscription.id })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ path: 'subscription', code: 'invalid_value' }] },
    });
  });
});

describe('resend', () => {
  it('sends the event again as a new delivery with the same webhook-id; the original keeps its history', async () => {
    const { company } = await t.tenant();
    const { subscription } = await subscribe(t, company.id, receiver.url());
    const event = await emit(t, company.id, 'ping', { message: 'once more' });
    await loop.drain();
    const [original] = await listDeliveries(t.ctx.db, t.ctx, { companyId: company.id });

    t.clock.advance(1000);
    const resent = await resendDelivery(t.ctx.db, t.ctx, { companyId: company.id, deliveryId: original.id });
    expect(resent).toEqual({ id: expect.any(String), resendOf: original.id, subscriptionId: subscription.id, eventId: event.id });
    await loop.drain();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id]);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    const deliveries = await listDeliveries(t.ctx.db, t.ctx, { companyId: company.id, eventId: event.id });
    expect(deliveries.map((d) => [d.id, d.status, d.attempts])).toEqual([
      [resent.id, 'succeeded', 1],
      [original.id, 'succeeded', 1],
    ]);
  });

  it("is 404 for another company's delivery", async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, receiver.url());
    await emit(t, company.id, 'ping', { message: 'mine' });
    const [delivery] = await listDeliveries(t.ctx.db, t.ctx, { companyId: company.id });
    const intruder = await t.tenant();
    await expect(resendDelivery(t.ctx.db, t.ctx, { companyId: intruder.company.id, deliveryId: delivery.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('recover', () => {
  it('re-delivers every event since a time to the subscriptions selecting it, pings excluded', async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, receiver.url('/all'));
    const goals = await subscribe(t, company.id, receiver.url('/goals'), ['form.goal_reached']);
    await emit(t, company.id, 'form.goal_reached', goalData(1));
    t.clock.advance(1000);
    const since = t.clock.now();
    await emit(t, company.id, 'form.goal_reached', goalData(2));
    await emit(t, company.id, 'ping', { message: 'a test' });
    t.clock.advance(1000);
    await emit(t, company.id, 'form.goal_reached', goalData(3));
    await loop.drain();
    receiver.received = [];

    expect(await recoverDeliveries(t.ctx.db, t.ctx, { companyId: company.id, since })).toEqual({
      queued: 4,
      since: since.toISOString(),
      subscriptionId: null,
    });
    await loop.drain();
    const counts = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body).data.responseCount).sort();
    expect(counts('/all')).toEqual([2, 3]);
    expect(counts('/goals')).toEqual([2, 3]);

    receiver.received = [];
    expect(await recoverDeliveries(t.ctx.db, t.ctx, { companyId: company.id, since, subscriptionId: goals.subscription.id })).toMatchObject({ queued: 2 });
    await loop.drain();
    expect(counts('/goals')).toEqual([2, 3]);
    expect(counts('/all')).toEqual([]);
  });

  it('refuses a time in the future', async () => {
    const { company } = await t.tenant();
    const future = new Date(t.clock.now().getTime() + 1);
    await expect(recoverDeliveries(t.ctx.db, t.ctx, { companyId: company.id, since: future })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ path: 'since' }] },
    });
  });
});

describe('the delivery log', () => {
  it('lists deliveries newest first with every attempt, filtered by subscription, event and status', async () => {
    const { company } = await t.tenant();
    const failing = await subscribe(t, company.id, receiver.url('/failing'));
    const working = await subscribe(t, company.id, receiver.url('/working'));
    receiver.respond = (request) => ({ status: request.path === '/failing' ? 500 : 204, body: request.path === '/failing' ? 'oops' : '' });
    const event = await emit(t, company.id, 'ping', { message: 'logged' });
    await loop.drain();

    const failed = await listDeliveries(t.ctx.db, t.ctx, { companyId: company.id, subscriptionId: failing.subscription.id });
    expect(failed).toEqual([
      {
        id: expect.any(String),
        companyId: company.id,
        subscriptionId: failing.subscription.id,
        eventId: event.id,
        eventType: 'ping',
        status: 'pending',
        attempts: 1,
        nextAttemptAt: new Date(t.clock.now().getTime() + 5000).toISOString(),
        leaseUntil: null,
        createdAt: t.clock.now().toISOString(),
        completedAt: null,
        log: [{ attempt: 1, startedAt: t.clock.now().toISOString(), durationMs: expect.any(Number), statusCode: 500, error: null, responseBody: 'oops' }],
      },
    ]);
    expect((await listDeliveries(t.ctx.db, t.ctx, { companyId: company.id, status: 'succeeded' })).map((d) => d.subscriptionId)).toEqual([working.subscription.id]);
    expect(await listDeliveries(t.ctx.db, t.ctx, { companyId: company.id, eventId: event.id })).toHaveLength(2);
    expect(await listDeliveries(t.ctx.db, t.ctx, { companyId: company.id, limit: 1 })).toHaveLength(1);
  });

  it('refuses malformed filters, naming each', async () => {
    await expect(listDeliveries(t.ctx.db, t.ctx, { companyId: null, subscriptionId: 'x', status: 'lost', limit: 0 })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ path: 'subscriptionId' }, { path: 'status' }, { path: 'limit' }] },
    });
  });
});

describe('the daily sweep', () => {
  it('removes attempts and finished deliveries older than 30 days, and keeps pending ones', async () => {
    const { company } = await t.tenant();
    const { subscription } = await subscribe(t, company.id, receiver.url());
    await emit(t, company.id, 'ping', { message: 'old and delivered' });
    await loop.drain();
    await emit(t, company.id, 'ping', { message: 'old and waiting' });
    await disableSubscription(t.ctx.db, t.ctx, { companyId: company.id, id: subscription.id });
    t.clock.advance(DELIVERY_LOG_RETENTION_DAYS * 86_400_000);
    await pruneDeliveries.sweep(t.ctx);
    expect(await listDeliveries(t.ctx.db, t.ctx, { companyId: company.id })).toHaveLength(2);

    t.clock.advance(1);
    await pruneDeliveries.sweep(t.ctx);
    const left = await listDeliveries(t.ctx.db, t.ctx, { companyId: company.id });
    expect(left.map((d) => [d.status, d.log])).toEqual([['pending', []]]);
    expect((await t.ctx.pool.query('SELECT count(*)::int AS n FROM webhook_attempts WHERE company_id = $1', [company.id])).rows[0].n).toBe(0);
  });
});
