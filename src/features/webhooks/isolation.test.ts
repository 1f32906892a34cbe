import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { emit, startReceiver, subscribe, type Receiver } from '../../../test/webhooks.js';
import { startDeliveryLoop, type DeliveryLoop } from './deliver-loop.js';

const EVENTS = 20;
const PER_SUBSCRIPTION = 4;

let t: TestApp;
let fast: Receiver[];
let stuck: Receiver;
let loop: DeliveryLoop;
let release!: () => void;
const released = new Promise<void>((resolve) => (release = resolve));
let stuckInFlight = 0;
let stuckMostInFlight = 0;

beforeAll(async () => {
  t = await startTestApp();
  fast = [await startReceiver(), await startReceiver()];
  // Holds every request until the test lets go: an endpoint as slow as the test needs.
  stuck = await startReceiver(() => {
    stuckMostInFlight = Math.max(stuckMostInFlight, ++stuckInFlight);
    return { status: 200, after: released.then(() => stuckInFlight--) };
  });
  // Real time: woken by LISTEN at each commit, as in production.
  loop = await startDeliveryLoop(t.ctx, { perSubscription: PER_SUBSCRIPTION });
});
afterAll(async () => {
  release();
  await loop?.stop();
  for (const receiver of [...fast, stuck]) await receiver?.close();
  await t?.close();
});

describe('one stuck endpoint among three', () => {
  it('does not delay the others, and never has more than its cap in flight', async () => {
    const { company } = await t.tenant();
    for (const receiver of [...fast, stuck]) await subscribe(t, company.id, receiver.url());
    for (let i = 0; i < EVENTS; i++) await emit(t, company.id, 'ping', { message: `event ${i}` });

    // Every event reaches both other receivers while the stuck one holds its first requests.
    await expect.poll(() => fast.map((r) => r.received.length), { timeout: 10_000, interval: 10 }).toEqual([EVENTS, EVENTS]);
    expect(stuck.received).toHaveLength(PER_SUBSCRIPTION);

    release();
    await expect.poll(() => stuck.received.length, { timeout: 10_000, interval: 20 }).toBe(EVENTS);
    expect(stuckMostInFlight).toBe(PER_SUBSCRIPTION);
  });
});
