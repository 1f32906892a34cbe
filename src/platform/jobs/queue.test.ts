import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { enqueue } from './queue.js';
import { defineTask } from './define-task.js';
import { startWorker } from './worker.js';
import { emitEvent } from '../../features/events/emit-event.js';

/** The webhook kind, watched: which of its transports were closed (a worker with options.kinds drops it). */
const closedWebhookKinds = vi.hoisted(() => ({ opened: 0, closed: 0 }));
vi.mock('../../features/webhooks/deliver-loop.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../features/webhooks/deliver-loop.js')>();
  return {
    ...real,
    webhookLane: (...args: Parameters<typeof real.webhookLane>) => {
      const lane = real.webhookLane(...args);
      const close = lane.kind.close?.bind(lane.kind);
      closedWebhookKinds.opened += 1;
      lane.kind.close = async () => {
        closedWebhookKinds.closed += 1;
        await close?.();
      };
      return lane;
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const pendingJobs = async (task: string) =>
  (
    await t.ctx.pool.query(
      `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = $1`,
      [task],
    )
  ).rows[0].n;

describe('jobs and events commit with the business change', () => {
  it('a rolled-back transaction leaves neither its job nor its event', async () => {
    const { company } = await t.tenant();
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await enqueue(tx, 'test.rollback', { n: 1 });
        await emitEvent(tx, t.ctx, { companyId: company.id, type: 'ping', data: { message: 'never' } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await pendingJobs('test.rollback')).toBe(0);
    expect((await t.ctx.pool.query('SELECT count(*)::int AS n FROM events WHERE company_id = $1', [company.id])).rows[0].n).toBe(0);
  });

  it('emitEvent writes the spec envelope fields inside the transaction', async () => {
    const { company } = await t.tenant();
    const event = await t.ctx.db.transaction((tx) => emitEvent(tx, t.ctx, { companyId: company.id, type: 'ping', data: { message: 'hello' } }));
    expect(event).toEqual({ id: expect.any(String), type: 'ping', version: 1, occurredAt: t.clock.now().toISOString(), companyId: company.id, data: { message: 'hello' } });
    const row = (await t.ctx.pool.query('SELECT type, data, occurred_at FROM events WHERE id = $1', [event.id])).rows[0];
    expect(row).toEqual({ type: 'ping', data: { message: 'hello' }, occurred_at: t.clock.now() });
  });

  it('a committed job runs in the worker with its payload, and a scheduled one waits for runAt', async () => {
    const seen: unknown[] = [];
    const task = defineTask<{ n: number }>({
      name: 'test.record',
      handler: async (payload) => {
        seen.push(payload);
      },
    });
    await t.ctx.db.transaction(async (tx) => {
      await enqueue(tx, 'test.record', { n: 1 });
      await enqueue(tx, 'test.record', { n: 2 }, { runAt: new Date(Date.now() + 3_600_000) });
    });
    const worker = await startWorker(t.ctx, { tasks: [task], concurrency: 1 });
    try {
      await expect.poll(() => seen, { timeout: 10_000 }).toEqual([{ n: 1 }]);
      expect(await pendingJobs('test.record')).toBe(1);
      expect((await t.get(null, '/metrics')).body).toContain('quorum_job_queue_depth{task="test.record"} 1');
    } finally {
      await worker.stop();
    }
  });
});

describe('the worker with options.kinds', () => {
  it('closes the outbound kinds it leaves out, so no transport is left open after stop', async () => {
    const before = { ...closedWebhookKinds };
    const worker = await startWorker(t.ctx, { tasks: [], kinds: ['email'] });
    await worker.stop();
    expect(closedWebhookKinds.opened - before.opened).toBe(1);
    expect(closedWebhookKinds.closed - before.closed).toBe(1);
  });
});
