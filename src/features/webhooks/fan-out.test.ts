import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import type { Tx } from '../../platform/db/database.js';
import { deliveryRows, emit, goalData, subscribe } from '../../../test/webhooks.js';
import { emitEvent, MAX_EVENT_BYTES, storeEventsFrom } from '../events/emit-event.js';
import { disableSubscription } from './disable-subscription.js';
import { sleeperName } from '../../platform/outbound/wake-sleepers.js';
import { DELIVERIES_CHANNEL } from './queue-deliveries.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const url = 'http://127.0.0.1:9/hook';

describe('emitEvent fan-out', () => {
  it('queues one delivery per enabled subscription of the company that selects the type', async () => {
    const { company } = await t.tenant();
    const all = await subscribe(t, company.id, url);
    const goals = await subscribe(t, company.id, url, ['form.goal_reached', 'invite.sent']);
    await subscribe(t, company.id, url, ['ping']);
    const disabled = await subscribe(t, company.id, url);
    await disableSubscription(t.ctx.db, t.ctx, { companyId: company.id, id: disabled.subscription.id });
    const other = await t.tenant();
    await subscribe(t, other.company.id, url);

    const event = await emit(t, company.id, 'form.goal_reached', goalData());
    const rows = await deliveryRows(t, company.id);
    expect(rows.map((r) => r.subscription_id).sort()).toEqual([all.subscription.id, goals.subscription.id].sort());
    for (const row of rows) {
      expect(row).toMatchObject({ event_id: event.id, status: 'pending', attempts: 0, lease_until: null, next_attempt_at: t.clock.now() });
      // UUIDv7 stamped with the event's time, like every id of the application.
      expect(row.id.slice(0, 13).replace('-', '')).toBe(t.clock.now().getTime().toString(16).padStart(12, '0'));
      expect(row.id[14]).toBe('7');
    }
    expect(await deliveryRows(t, other.company.id)).toEqual([]);
  });

  /** A LISTEN connection, shown as a sleeping loop or as a busy one, collecting what it is sent. */
  async function listenAs(state: 'asleep' | 'busy') {
    const listener = new pg.Client({ connectionString: t.databaseUrl, application_name: state === 'asleep' ? sleeperName(DELIVERIES_CHANNEL) : 'busy loop' });
    await listener.connect();
    const notified: string[] = [];
    listener.on('notification', (n) => notified.push(n.channel));
    await listener.query(`LISTEN ${DELIVERIES_CHANNEL}; LISTEN sentinel`);
    return { listener, notified };
  }

  it('commits with the transaction: a rolled-back one leaves no event, no delivery and wakes no worker', async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, url);
    const { listener, notified } = await listenAs('asleep');
    try {
      await expect(
        t.ctx.db.transaction(async (tx) => {
          await emitEvent(tx, t.ctx, { companyId: company.id, type: 'ping', data: { message: 'rolled back' } });
          throw new Error('business rule failed');
        }),
      ).rejects.toThrow('business rule failed');
      expect(await deliveryRows(t, company.id)).toEqual([]);
      expect((await t.ctx.pool.query('SELECT count(*)::int AS n FROM events WHERE company_id = $1', [company.id])).rows[0].n).toBe(0);

      await t.ctx.db.transaction(async (tx) => {
        await emitEvent(tx, t.ctx, { companyId: company.id, type: 'ping', data: { message: 'committed' } });
        expect(await deliveryRows(t, company.id)).toEqual([]);
      });
      expect(await deliveryRows(t, company.id)).toHaveLength(1);
      await expect.poll(() => notified).toEqual([DELIVERIES_CHANNEL]);
    } finally {
      await listener.end();
    }
  });

  it('notifies no one while no loop sleeps: busy loops claim again on their own, and a NOTIFY per commit would serialise the commits', async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, url);
    const { listener, notified } = await listenAs('busy');
    try {
      await emit(t, company.id, 'ping', { message: 'while busy' });
      expect(await deliveryRows(t, company.id)).toHaveLength(1);
      // Notifications arrive in commit order: once the sentinel is in, any earlier one would be too.
      await t.ctx.pool.query('NOTIFY sentinel');
      await expect.poll(() => notified).toEqual(['sentinel']);

      await listener.query('SET application_name = $$' + sleeperName(DELIVERIES_CHANNEL) + '$$');
      await emit(t, company.id, 'ping', { message: 'while asleep' });
      await expect.poll(() => notified).toEqual(['sentinel', DELIVERIES_CHANNEL]);
    } finally {
      await listener.end();
    }
  });

  it(`refuses an event whose envelope exceeds ${MAX_EVENT_BYTES} bytes with PAYLOAD_TOO_LARGE, writing nothing`, async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, url);
    const huge = { message: 'x'.repeat(MAX_EVENT_BYTES) };
    await expect(emit(t, company.id, 'ping', huge)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await t.ctx.pool.query('SELECT count(*)::int AS n FROM events WHERE company_id = $1', [company.id])).rows[0].n).toBe(0);
    await expect(emit(t, company.id, 'ping', { message: 'x'.repeat(MAX_EVENT_BYTES - 200) })).resolves.toMatchObject({ type: 'ping' });
  });

  it('stores events built in SQL (storeEventsFrom) with their deliveries in one statement, under the same size bound', async () => {
    const { company } = await t.tenant();
    const all = await subscribe(t, company.id, url);
    await subscribe(t, company.id, url, ['form.goal_reached']);
    const pings = (message: string, count: number) => ({
      with: sql`wanted AS (SELECT n FROM generate_series(1, ${count}) AS n)`,
      events: sql`SELECT gen_random_uuid() AS id, ${company.id}::uuid AS company_id, 'ping' AS type,
        jsonb_build_object('message', ${message}::text || n) AS data, ${t.clock.now().toISOString()}::timestamptz AS occurred_at FROM wanted`,
    });
    expect(await t.ctx.db.transaction((tx) => storeEventsFrom(tx, t.ctx, pings('hello ', 3)))).toBe(3);
    const rows = await deliveryRows(t, company.id);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.subscription_id))).toEqual(new Set([all.subscription.id]));

    const other = await t.tenant();
    // The oversized event fails the whole statement: the small one beside it is not stored either.
    const mixed = pings('x'.repeat(MAX_EVENT_BYTES), 1);
    mixed.events.append(sql` UNION ALL SELECT gen_random_uuid(), ${other.company.id}::uuid, 'ping', '{"message":"small"}'::jsonb, now()`);
    const refused = t.ctx.db.transaction((tx) => storeEventsFrom(tx, t.ctx, mixed));
    await expect(refused).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { type: 'ping', limit: MAX_EVENT_BYTES } });
    expect((await t.ctx.pool.query('SELECT count(*)::int AS n FROM events WHERE company_id = ANY($1)', [[company.id, other.company.id]])).rows[0].n).toBe(3);
    await expect(t.ctx.db.transaction((tx) => storeEventsFrom(tx, t.ctx, pings('x'.repeat(MAX_EVENT_BYTES - 300), 1)))).resolves.toBe(1);
  });

  it('is typed by the catalog: the data must match the event type (checked by tsc, never run)', () => {
    const misuse = (tx: Tx, companyId: string) => [
      emitEvent(tx, t.ctx, { companyId, type: 'form.goal_reached', data: goalData() }),
      // @ts-expect-error ping data is { message }, not a goal
      emitEvent(tx, t.ctx, { companyId, type: 'ping', data: goalData() }),
      // @ts-expect-error not a catalog type
      emitEvent(tx, t.ctx, { companyId, type: 'form.deleted', data: { message: 'x' } }),
    ];
    expect(misuse).toBeTypeOf('function');
  });
});
