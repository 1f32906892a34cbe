import { describe, expect, it } from 'vitest';
import type { WorkerContext } from '../jobs/define-task.js';
import { ManualClock } from '../../lib/clock.js';
import type { ClaimRequest, OutboundItem, OutboundKind } from './kind.js';
import { startOutboundLoop } from './loop.js';

/**
 * The loop's own rules, with a kind of its own: a queue in memory whose claim keeps the request's
 * limits, and a transport whose answers the test releases. The webhook kind's tests cover the
 * same loop against Postgres and real HTTP receivers.
 */
function memoryKind(queue: OutboundItem[]) {
  const sending = new Map<string, number>();
  const gates = new Map<string, () => void>();
  const kind = {
    name: 'memory',
    notifyChannel: 'unused',
    claims: [] as ClaimRequest[],
    records: [] as string[][],
    mostAtOnce: new Map<string, number>(),
    failRecord: false,
    slotUntilRecorded: false as boolean,
    /** Items sent whose result is not recorded yet: what a crash now would send again. */
    unrecorded: new Set<string>(),
    mostUnrecorded: 0,
    async claim(_ctx: WorkerContext, request: ClaimRequest) {
      kind.claims.push(request);
      const taken: OutboundItem[] = [];
      for (const item of [...queue]) {
        const held = (request.held.get(item.target) ?? 0) + taken.filter((t) => t.target === item.target).length;
        if (taken.length < request.limit && held < request.perTarget) taken.push(queue.splice(queue.indexOf(item), 1)[0]);
      }
      return taken;
    },
    async send(item: OutboundItem) {
      const now = (sending.get(item.target) ?? 0) + 1;
      sending.set(item.target, now);
      kind.mostAtOnce.set(item.target, Math.max(now, kind.mostAtOnce.get(item.target) ?? 0));
      if (item.target === 'slow') await new Promise<void>((resolve) => gates.set(item.id, resolve));
      sending.set(item.target, sending.get(item.target)! - 1);
      kind.unrecorded.add(item.id);
      kind.mostUnrecorded = Math.max(kind.mostUnrecorded, kind.unrecorded.size);
      return item.id;
    },
    async record(_ctx: WorkerContext, results: { item: OutboundItem; result: string }[]) {
      if (kind.failRecord) throw new Error('database away');
      kind.records.push(results.map(({ result }) => result));
      for (const { result } of results) kind.unrecorded.delete(result);
    },
    release: () => [...gates.values()].forEach((open) => open()),
  } satisfies OutboundKind<OutboundItem, string> & Record<string, unknown>;
  return kind;
}

const items = (target: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${target}-${i}`, target, attempt: 1 }));
// The loop reads only the clock (and the pool's settings when it listens).
const ctx = { clock: new ManualClock('2026-03-01T00:00:00Z') } as unknown as WorkerContext;
const manual = { listen: false, pollIntervalMs: null } as const;

describe('the outbound loop', () => {
  it('keeps each target to its slots, claims twice the slots ahead, and a slow target does not hold up the others', async () => {
    const queue: OutboundItem[] = [];
    const kind = memoryKind(queue);
    const loop = await startOutboundLoop(ctx, kind, { ...manual, perTarget: 2 });
    queue.push(...items('slow', 6), ...items('fast', 20));
    const pass = loop.runOnce();
    // Passes follow one another as the fast lane runs low, while the slow one is stuck.
    await expect.poll(() => kind.records.flat().filter((id) => id.startsWith('fast')).length).toBe(20);
    expect(kind.records.flat().filter((id) => id.startsWith('slow'))).toEqual([]);
    expect(kind.claims[1]).toMatchObject({ perTarget: 4, limit: 128, leaseMs: 30_000 });
    expect(kind.claims[1].held.get('slow') ?? 0).toBeLessThanOrEqual(4);
    while (kind.records.flat().length < 26) {
      kind.release();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await pass;
    await loop.drain();
    expect(kind.records.flat().sort()).toEqual([...items('fast', 20), ...items('slow', 6)].map((i) => i.id).sort());
    expect(kind.mostAtOnce.get('slow')).toBe(2);
    expect(kind.mostAtOnce.get('fast')).toBeLessThanOrEqual(2);
    await loop.stop();
  });

  it('never holds more than maxInFlight, and writes results that finish together in one record call', async () => {
    const queue: OutboundItem[] = [];
    const kind = memoryKind(queue);
    const loop = await startOutboundLoop(ctx, kind, { ...manual, perTarget: 10, maxInFlight: 6 });
    queue.push(...items('fast', 30));
    await loop.drain();
    expect(kind.claims.every((claim) => claim.limit <= 6)).toBe(true);
    expect(kind.records.flat()).toHaveLength(30);
    expect(kind.records.length).toBeLessThan(30);
    await loop.stop();
  });

  it('leaves an item it could not record to its lease (logged), and goes on', async () => {
    const queue: OutboundItem[] = [];
    const kind = memoryKind(queue);
    const errors: string[] = [];
    const loop = await startOutboundLoop(ctx, kind, { ...manual, log: (level, message) => level === 'error' && errors.push(message) });
    kind.failRecord = true;
    queue.push(...items('fast', 2));
    await expect(loop.runOnce()).resolves.toBe(2);
    expect(errors).toEqual(['memory fast-0 attempt 1 not recorded: database away', 'memory fast-1 attempt 1 not recorded: database away']);
    expect(kind.records).toEqual([]);
    queue.push(...items('next', 1));
    kind.failRecord = false;
    await loop.drain();
    expect(kind.records).toEqual([['next-0']]);
    await loop.stop();
  });

  it('slotUntilRecorded: a slot frees only when its result is recorded, so sent-but-unrecorded items never pass the slots; a failed record is tried again, sending nothing meanwhile', async () => {
    const queue: OutboundItem[] = [];
    const kind = memoryKind(queue);
    kind.slotUntilRecorded = true;
    const warnings: string[] = [];
    const loop = await startOutboundLoop(ctx, kind, { ...manual, perTarget: 3, log: (level, message) => level === 'warn' && warnings.push(message) });
    queue.push(...items('fast', 30));
    kind.failRecord = true;
    const pass = loop.runOnce();
    await expect.poll(() => warnings.length).toBeGreaterThanOrEqual(3);
    // The database is away: the three slots hold their answered items, and nothing else is sent.
    expect([...kind.unrecorded].sort()).toEqual(['fast-0', 'fast-1', 'fast-2']);
    expect(warnings[0]).toMatch(/^memory: \d results not recorded \(database away\), trying again in 100 ms$/);
    kind.failRecord = false;
    await pass;
    await loop.drain();
    expect(kind.records.flat().sort()).toEqual(items('fast', 30).map((i) => i.id).sort());
    expect(kind.mostUnrecorded).toBe(3);
    await loop.stop();
  });
  it('stamps the lease at claim: an item whose lease ended while it waited for a slot is not sent (it may be claimed elsewhere)', async () => {
    const queue: OutboundItem[] = [];
    const kind = memoryKind(queue);
    const clock = new ManualClock('2026-03-01T00:00:00Z');
    const warnings: string[] = [];
    const loop = await startOutboundLoop({ clock } as unknown as WorkerContext, kind, { ...manual, perTarget: 1, leaseMs: 30_000, log: (level, message) => level === 'warn' && warnings.push(message) });
    queue.push(...items('slow', 2));
    let settled = false;
    const pass = loop.runOnce().finally(() => (settled = true));
    // slow-0 is being sent, slow-1 waits in its lane; the slow answer takes longer than the lease
    await expect.poll(() => kind.mostAtOnce.get('slow')).toBe(1);
    clock.advance(30_000);
    while (!settled) {
      kind.release();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await pass;
    expect(kind.records.flat()).toEqual(['slow-0']);
    expect(warnings).toEqual(['memory slow-1 attempt 1 not sent: its lease ended while it waited for a slot']);
    await loop.stop();
  });
});
