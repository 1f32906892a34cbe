import { describe, expect, it } from 'vitest';
import { features } from '../../features/index.js';
import type { Sweep } from './define-sweep.js';

const scheduled = (
  await Promise.all(features.map(async (feature) => ((await feature.tasks?.()) ?? []).filter((task) => task.cron).map((task) => ({ feature: feature.name, task }))))
).flat();

describe('scheduled work', () => {
  it('is declared one way: every cron task is a defineSweep sweep named <feature>.<what it does>', () => {
    const odd = scheduled.filter(({ feature, task }) => typeof (task as Partial<Sweep>).sweep !== 'function' || !task.name.startsWith(`${feature}.`));
    expect(odd.map(({ task }) => task.name)).toEqual([]);
  });

  it('keeps the schedule the worker has always run', () => {
    const schedule = Object.fromEntries(scheduled.map(({ task }) => [task.name, task.cron]));
    expect(schedule).toEqual({
      'events.prune': '17 3 * * *',
      'idempotency.prune': '23 * * * *',
      'invites.expire': '* * * * *',
      'reminders.send': '*/15 * * * *',
      'respondent.prune-uploads': '41 * * * *',
      'statistics.fold-rollups': '* * * * *',
      'treatments.overdue': '*/5 * * * *',
      'treatments.effectiveness': '11 * * * *',
      'webhooks.prune': '27 3 * * *',
    });
  });
});
