import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { emit, manualLoop, startReceiver, subscribe, type Receiver } from '../../../test/webhooks.js';
import type { ClaimRequest } from '../../platform/outbound/kind.js';
import { deliveryClaimer, FLOOR_MARGIN_MS } from './deliver-claim.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const request = (sweep: boolean): ClaimRequest => ({ now: t.clock.now(), limit: 100, perTarget: 8, held: new Map(), leaseMs: 30_000, sweep });

describe('claiming deliveries', () => {
  it('starts ordinary claims at the floor of what it claimed last; a sweep still finds a delivery that committed below it', async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, receiver.url());
    const claim = deliveryClaimer(t.ctx.pool);
    const first = await emit(t, company.id, 'ping', { message: 'first' });
    expect((await claim(request(false))).map((d) => d.event.id)).toEqual([first.id]);
    // Stamped (and so due) earlier than the floor, committed after the claim: a late commit.
    t.clock.advance(-(FLOOR_MARGIN_MS + 1000));
    const late = await emit(t, company.id, 'ping', { message: 'late' });
    t.clock.advance(FLOOR_MARGIN_MS + 1000);
    const within = await emit(t, company.id, 'ping', { message: 'within the margin' });
    expect((await claim(request(false))).map((d) => d.event.id)).toEqual([within.id]);
    expect((await claim(request(true))).map((d) => d.event.id)).toEqual([late.id]);
  });

  it('a loop\'s drain delivers a delivery committed below its floor', async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, receiver.url());
    const loop = await manualLoop(t);
    await emit(t, company.id, 'ping', { message: 'first' });
    await loop.drain();
    t.clock.advance(-(FLOOR_MARGIN_MS + 1000));
    const late = await emit(t, company.id, 'ping', { message: 'late' });
    t.clock.advance(FLOOR_MARGIN_MS + 1000);
    await loop.drain();
    await loop.stop();
    expect(receiver.received.map((r) => JSON.parse(r.body).id)).toContain(late.id);
  });
});
