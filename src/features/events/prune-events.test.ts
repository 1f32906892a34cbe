import { describe, expect } from 'vitest';
import { test } from '../../../test/fixtures.js';
import type { TestApp } from '../../../test/harness.js';
import { allTasks } from '../../platform/jobs/tasks.js';
import { EVENT_RETENTION_DAYS, pruneEvents } from './prune-events.job.js';

const DAY = 86_400_000;

/** `count` events of the company, occurred `ageDays` before the clock, in one statement. */
async function seedEvents(t: TestApp, companyId: string, count: number, ageDays: number): Promise<void> {
  const at = new Date(t.clock.now().getTime() - ageDays * DAY).toISOString();
  await t.ctx.pool.query(
    `INSERT INTO events (id, company_id, type, data, occurred_at)
     SELECT uuidv7_at($2::timestamptz), $1, 'ping', '{"message":"x"}', $2::timestamptz FROM generate_series(1, $3)`,
    [companyId, at, count],
  );
}

const countEvents = async (t: TestApp, companyId: string) =>
  (await t.ctx.pool.query('SELECT count(*)::int AS n FROM events WHERE company_id = $1', [companyId])).rows[0].n;

describe('the events sweep', () => {
  test('removes events older than the retention as the clock moves, keeps newer ones, and is harmless twice', async ({ app, clock, tenant }) => {
    await seedEvents(app, tenant.company.id, 3, 10);
    await seedEvents(app, tenant.company.id, 2, 1);
    expect(await pruneEvents.sweep(app.ctx)).toBe(0);

    clock.advance((EVENT_RETENTION_DAYS - 10) * DAY + 1);
    expect(await pruneEvents.sweep(app.ctx)).toBe(3);
    expect(await countEvents(app, tenant.company.id)).toBe(2);
    expect(await pruneEvents.sweep(app.ctx)).toBe(0);
    expect(await countEvents(app, tenant.company.id)).toBe(2);
  });

  test('shares the work between concurrent sweeps: every due row is removed exactly once', async ({ app, clock, tenant }) => {
    expect(clock.now().toISOString()).toBe('2026-03-02T09:00:00.000Z'); // its own clock: the first test moved the app's
    // More than two batches, so both sweeps are claiming while the other holds locks.
    await seedEvents(app, tenant.company.id, 12_000, EVENT_RETENTION_DAYS + 1);
    await seedEvents(app, tenant.company.id, 5, 0);
    const [a, b] = await Promise.all([pruneEvents.sweep(app.ctx), pruneEvents.sweep(app.ctx)]);
    expect(a + b).toBe(12_000);
    expect(await countEvents(app, tenant.company.id)).toBe(5);
  });

  test("is woken daily by the worker's cron", async () => {
    expect((await allTasks()).find((task) => task.name === 'events.prune')).toMatchObject({ cron: '17 3 * * *' });
  });
});
