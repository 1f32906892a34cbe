import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/harness.js';
import {
  deliveryRows,
  emit,
  goalData,
  manualLoop,
  startReceiver,
  subscribe,
  verifiesWith,
  verifyWebhook,
  webhookTestbed,
  type Receiver,
} from '../../../test/webhooks.js';
import { startDeliveryLoop, type DeliveryLoop } from './deliver-loop.js';
import { deleteSubscription } from './delete-subscription.js';
import { pingSubscription } from './ping-subscription.js';
import { RESPONSE_BODY_LIMIT } from './deliver-send.js';
import { DELIVERIES_CHANNEL } from './queue-deliveries.js';
import { sleeperName } from '../../platform/outbound/wake-sleepers.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-policy.js';

const S = 1000;
const DAY = 86_400_000;

const bed = webhookTestbed({ random: () => 0.5 });
let t: TestApp;
let receiver: Receiver;
let loop: DeliveryLoop;
beforeAll(() => ({ t, receiver, loop } = bed));

async function attemptLog(deliveryId: string) {
  const { rows } = await t.ctx.pool.query(
    'SELECT attempt, started_at, duration_ms, status_code, error, response_body FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt',
    [deliveryId],
  );
  return rows;
}

async function subscription(id: string) {
  return (await t.ctx.pool.query('SELECT enabled, disabled_reason, failing_since FROM webhook_subscriptions WHERE id = $1', [id])).rows[0];
}

describe('a delivery', () => {
  it('is a signed POST of the envelope that the reference library verifies, and is logged', async () => {
    const { company } = await t.tenant();
    const { secret } = await subscribe(t, company.id, receiver.url());
    receiver.respond = () => ({ status: 200, body: 'thanks' });
    const event = await emit(t, company.id, 'form.goal_reached', goalData());
    await loop.drain();

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(verifyWebhook(secret, request, t.clock)).toEqual(event);
    expect(request.headers).toMatchObject({ 'webhook-id': event.id, 'content-type': 'application/json', 'user-agent': 'Quorum-Webhooks/1' });
    const [delivery] = await deliveryRows(t, company.id);
    expect(delivery).toMatchObject({ event_id: event.id, status: 'succeeded', attempts: 1, lease_until: null });
    expect(await attemptLog(delivery.id)).toEqual([
      { attempt: 1, started_at: t.clock.now(), duration_ms: expect.any(Number), status_code: 200, error: null, response_body: 'thanks' },
    ]);
  });

  it('is sent again after a 500 with the same webhook-id and a valid signature', async () => {
    const { company } = await t.tenant();
    const { secret } = await subscribe(t, company.id, receiver.url());
    receiver.respond = () => ({ status: receiver.received.length === 1 ? 500 : 200 });
    const event = await emit(t, company.id, 'ping', { message: 'again' });
    await loop.drain();
    t.clock.advance(RETRY_DELAYS_MS[0] * 1.05);
    await loop.drain();

    expect(receiver.received).toHaveLength(2);
    for (const request of receiver.received) expect(request.headers['webhook-id']).toBe(event.id);
    expect(verifiesWith(secret, receiver.received[1], t.clock)).toBe(true);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    const [delivery] = await deliveryRows(t, company.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect((await attemptLog(delivery.id)).map((a) => a.status_code)).toEqual([500, 200]);
  });

  it('follows the retry schedule exactly (delay + injected jitter), then fails after the last attempt', async () => {
    const { company } = await t.tenant();
    const { secret } = await subscribe(t, company.id, receiver.url());
    receiver.respond = () => ({ status: 503 });
    await emit(t, company.id, 'ping', { message: 'never accepted' });
    await loop.drain();
    expect(receiver.received).toHaveLength(1);

    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      const due = delay + Math.floor(delay * 0.1 * 0.5);
      t.clock.advance(due - 1);
      await loop.drain();
      expect(receiver.received, `retry ${i + 1} is not due 1 ms early`).toHaveLength(i + 1);
      t.clock.advance(1);
      await loop.drain();
      expect(receiver.received, `retry ${i + 1} is due at its delay`).toHaveLength(i + 2);
      expect(verifiesWith(secret, receiver.received[i + 1], t.clock)).toBe(true);
    }

    const [delivery] = await deliveryRows(t, company.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lease_until: null });
    t.clock.advance(30 * DAY);
    await loop.drain();
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    expect((await attemptLog(delivery.id)).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('honours retry-after, and waits at least 60 s after a 429', async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, receiver.url());
    receiver.respond = () => ({ status: 503, headers: { 'retry-after': '120' } });
    await emit(t, company.id, 'ping', { message: 'later' });
    await loop.drain();
    const [slowed] = await deliveryRows(t, company.id);
    expect(slowed.next_attempt_at).toEqual(new Date(t.clock.now().getTime() + 120 * S));

    const other = await t.tenant();
    await subscribe(t, other.company.id, receiver.url());
    receiver.respond = () => ({ status: 429 });
    await emit(t, other.company.id, 'ping', { message: 'throttled' });
    await loop.drain();
    const [throttled] = await deliveryRows(t, other.company.id);
    expect(throttled.next_attempt_at).toEqual(new Date(t.clock.now().getTime() + 60 * S));
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const elsewhere = await startReceiver();
    try {
      const { company } = await t.tenant();
      await subscribe(t, company.id, receiver.url());
      receiver.respond = () => ({ status: 302, headers: { location: elsewhere.url('/moved') } });
      await emit(t, company.id, 'ping', { message: 'moved?' });
      await loop.drain();
      expect(receiver.received).toHaveLength(1);
      expect(elsewhere.received).toHaveLength(0);
      const [delivery] = await deliveryRows(t, company.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await attemptLog(delivery.id))[0]).toMatchObject({ status_code: 302 });
    } finally {
      await elsewhere.close();
    }
  });

  it('410 Gone fails the delivery and disables the subscription: later events are not fanned out to it', async () => {
    const { company } = await t.tenant();
    const { subscription: gone } = await subscribe(t, company.id, receiver.url('/gone'));
    receiver.respond = () => ({ status: 410 });
    await emit(t, company.id, 'ping', { message: 'anyone?' });
    await loop.drain();
    expect(await subscription(gone.id)).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    expect((await deliveryRows(t, company.id))[0]).toMatchObject({ status: 'failed', attempts: 1 });

    await emit(t, company.id, 'ping', { message: 'still there?' });
    expect(await deliveryRows(t, company.id)).toHaveLength(1);
  });

  it('keeps at most 4 KiB of an answer and drops the connection instead of reading more', async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, receiver.url());
    receiver.respond = () => ({ status: 200, body: 'é'.repeat(512 * 1024) });
    const closedBefore = receiver.closedSockets;
    await emit(t, company.id, 'ping', { message: 'chatty receiver' });
    await loop.drain();
    const [delivery] = await deliveryRows(t, company.id);
    expect(delivery.status).toBe('succeeded');
    const [attempt] = await attemptLog(delivery.id);
    expect(Buffer.byteLength(attempt.response_body)).toBeLessThanOrEqual(RESPONSE_BODY_LIMIT);
    expect(attempt.response_body.startsWith('é'.repeat(2000))).toBe(true);
    await expect.poll(() => receiver.closedSockets).toBeGreaterThan(closedBefore);
  });

  it('times out a receiver that does not answer, and then waits at least 60 s', async () => {
    const impatient = await manualLoop(t, { timeoutMs: 200 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    try {
      const { company } = await t.tenant();
      await subscribe(t, company.id, receiver.url());
      receiver.respond = () => ({ status: 200, after: held });
      await emit(t, company.id, 'ping', { message: 'slow' });
      await impatient.drain();
      const [delivery] = await deliveryRows(t, company.id);
      expect(delivery).toMatchObject({ status: 'pending', next_attempt_at: new Date(t.clock.now().getTime() + 60 * S) });
      expect((await attemptLog(delivery.id))[0]).toMatchObject({ status_code: null, error: expect.stringContaining('timeout') });
    } finally {
      release();
      await impatient.stop();
    }
  });
});

describe('a subscription deleted while its delivery is under way', () => {
  it('is no error: the answer has nothing left to record', async () => {
    const errors: string[] = [];
    const watched = await manualLoop(t, { log: (level, message) => level === 'error' && errors.push(message) });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    try {
      const { company } = await t.tenant();
      const { subscription } = await subscribe(t, company.id, receiver.url());
      receiver.respond = () => ({ status: 410, after: held });
      await emit(t, company.id, 'ping', { message: 'going away' });
      const draining = watched.drain();
      await expect.poll(() => receiver.received.length).toBe(1);
      await deleteSubscription(t.ctx.db, t.ctx, { companyId: company.id, id: subscription.id });
      release();
      await draining;
      expect(errors).toEqual([]);
      expect(await deliveryRows(t, company.id)).toEqual([]);
    } finally {
      release();
      await watched.stop();
    }
  });
});

describe('the subscription failure streak', () => {
  it('disables a subscription failing for 5 days without a success', async () => {
    const { company } = await t.tenant();
    const { subscription: failing } = await subscribe(t, company.id, receiver.url());
    receiver.respond = () => ({ status: 500 });
    const start = t.clock.now();
    await emit(t, company.id, 'ping', { message: 'day 0' });
    await loop.drain();
    expect(await subscription(failing.id)).toMatchObject({ enabled: true, failing_since: start });

    t.clock.advance(5 * DAY - 1);
    await emit(t, company.id, 'ping', { message: 'day 5, almost' });
    await loop.drain();
    expect(await subscription(failing.id)).toMatchObject({ enabled: true, failing_since: start });

    t.clock.advance(1);
    await emit(t, company.id, 'ping', { message: 'day 5' });
    await loop.drain();
    expect(await subscription(failing.id)).toMatchObject({ enabled: false, disabled_reason: 'failing' });
  });

  it('is reset by any success', async () => {
    const { company } = await t.tenant();
    const { subscription: flaky } = await subscribe(t, company.id, receiver.url());
    receiver.respond = () => ({ status: 500 });
    await emit(t, company.id, 'ping', { message: 'fails' });
    await loop.drain();
    t.clock.advance(DAY);
    receiver.respond = () => ({ status: 200 });
    await emit(t, company.id, 'ping', { message: 'works' });
    await loop.drain();
    expect(await subscription(flaky.id)).toMatchObject({ enabled: true, failing_since: null });

    receiver.respond = () => ({ status: 500 });
    t.clock.advance(4 * DAY);
    await emit(t, company.id, 'ping', { message: 'fails again' });
    await loop.drain();
    expect(await subscription(flaky.id)).toMatchObject({ enabled: true, failing_since: t.clock.now() });
  });
});

describe('private targets', () => {
  let guarded: DeliveryLoop;
  let warnings: string[];
  afterEach(async () => guarded?.stop());

  async function guardedLoop() {
    warnings = [];
    const log = (level: string, message: string) => level === 'warn' && warnings.push(message);
    guarded = await manualLoop({ ...t, ctx: { ...t.ctx, config: { ...t.ctx.config, webhookAllowPrivateTargets: false } } }, { log });
  }

  it('are refused when WEBHOOK_ALLOW_PRIVATE_TARGETS is off: failed for good, never retried, the attempt logs why', async () => {
    await guardedLoop();
    const { company } = await t.tenant();
    await subscribe(t, company.id, receiver.url());
    await emit(t, company.id, 'ping', { message: 'to loopback' });
    await guarded.drain();
    expect(receiver.received).toHaveLength(0);
    const [delivery] = await deliveryRows(t, company.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lease_until: null });
    expect((await attemptLog(delivery.id))[0]).toMatchObject({ status_code: null, error: expect.stringContaining('127.0.0.1') });

    t.clock.advance(DAY);
    await guarded.drain();
    expect(await deliveryRows(t, company.id)).toMatchObject([{ status: 'failed', attempts: 1 }]);
  });

  it('include a host name that DNS answers with a loopback address (localhost), refused at connect time', async () => {
    await guardedLoop();
    const { company } = await t.tenant();
    const { subscription } = await subscribe(t, company.id, receiver.url().replace('127.0.0.1', 'localhost'));
    await emit(t, company.id, 'ping', { message: 'to localhost' });
    await guarded.drain();
    expect(receiver.received).toHaveLength(0);
    const [delivery] = await deliveryRows(t, company.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await attemptLog(delivery.id))[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^Target localhost resolves to .*; refused\.$/) });
    expect(warnings).toEqual([expect.stringContaining(`subscription ${subscription.id} delivery ${delivery.id} attempt 1: Target localhost`)]);
    expect(warnings[0]).toMatch(/failed for good$/);
  });

  it('include the operator\'s ping (quorum webhook ping): refused like any delivery, no request reaches the receiver', async () => {
    await guardedLoop();
    const { company } = await t.tenant();
    const { subscription } = await subscribe(t, company.id, receiver.url());
    const { event } = await pingSubscription(t.ctx.db, t.ctx, { companyId: company.id, subscriptionId: subscription.id, message: 'to loopback' });
    await guarded.drain();
    t.clock.advance(DAY);
    await guarded.drain();
    expect(receiver.received).toHaveLength(0);
    const [delivery] = await deliveryRows(t, company.id);
    expect(delivery).toMatchObject({ event_id: event.id, status: 'failed', attempts: 1 });
    expect((await attemptLog(delivery.id))[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^Target 127\.0\.0\.1 is a loopback.*refused\.$/) });
  });
});

describe('a failed delivery', () => {
  it('is logged at warn with its subscription, delivery, attempt, answer and next try; a success is not', async () => {
    const warnings: string[] = [];
    const logged = await manualLoop(t, { log: (level, message) => level === 'warn' && warnings.push(message) });
    try {
      const { company } = await t.tenant();
      const { subscription } = await subscribe(t, company.id, receiver.url());
      receiver.respond = () => ({ status: receiver.received.length === 1 ? 500 : 200 });
      await emit(t, company.id, 'ping', { message: 'flaky' });
      await logged.drain();
      const [delivery] = await deliveryRows(t, company.id);
      const retryAt = new Date(t.clock.now().getTime() + RETRY_DELAYS_MS[0]).toISOString();
      expect(warnings).toEqual([`webhook delivery failed: subscription ${subscription.id} delivery ${delivery.id} attempt 1: HTTP 500; retry at ${retryAt}`]);

      t.clock.advance(RETRY_DELAYS_MS[0]);
      await logged.drain();
      expect(await deliveryRows(t, company.id)).toMatchObject([{ status: 'succeeded', attempts: 2 }]);
      expect(warnings).toHaveLength(1);
    } finally {
      await logged.stop();
    }
  });
});

describe('a listening loop', () => {
  const sleepers = async () =>
    (await t.ctx.pool.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [sleeperName(DELIVERIES_CHANNEL)])).rows[0].n;

  it('shows itself asleep when idle and is woken at commit; busy, it finds new work without a notification', async () => {
    const live = await startDeliveryLoop(t.ctx, { pollIntervalMs: null, random: () => 0 });
    try {
      const { company } = await t.tenant();
      await subscribe(t, company.id, receiver.url());
      await expect.poll(sleepers).toBe(1);
      await emit(t, company.id, 'ping', { message: 'wakes it' });
      await expect.poll(() => receiver.received.length).toBe(1);
      await expect.poll(sleepers).toBe(1);

      let answer!: () => void;
      const held = new Promise<void>((resolve) => (answer = resolve));
      receiver.respond = () => ({ status: 200, after: receiver.received.length === 2 ? held : undefined });
      await emit(t, company.id, 'ping', { message: 'keeps it busy' });
      await expect.poll(() => receiver.received.length).toBe(2);
      expect(await sleepers()).toBe(0);
      const queuedWhileBusy = await emit(t, company.id, 'ping', { message: 'no notification' });
      answer();
      await expect.poll(() => receiver.received.map((r) => r.headers['webhook-id'])).toContain(queuedWhileBusy.id);
      await expect.poll(sleepers).toBe(1);
    } finally {
      await live.stop();
    }
  });
});

