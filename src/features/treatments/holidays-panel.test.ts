import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditOf } from '../../../test/audit-records.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser } from '../../../test/panel.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('adds, renames, lists and removes the company’s holidays; each change audited; another company’s day is 404', async () => {
  const member = await signInPanelUser(t, { permissions: ['settings'] });
  const other = await signInPanelUser(t, { permissions: ['settings'] });
  const base = '/panel/api/settings/holidays';
  // the clock moves between acts: audit records are read back in time order
  const post = (body: object) => (t.clock.advance(1000), member.client.post(member, base, body));
  expect((await member.client.get(member, base)).json().data).toEqual([]);
  expect((await post({ day: '2026-12-24', name: 'Recesso' })).json().data).toEqual({ day: '2026-12-24', name: 'Recesso', movedDeadlines: 0 });
  expect((await post({ day: '2026-04-03', name: 'Sexta-feira Santa' })).statusCode).toBe(200);
  expect((await post({ day: '2026-12-24', name: 'Véspera de Natal' })).statusCode).toBe(200);
  expect((await member.client.get(member, base)).json().data).toEqual([
    { day: '2026-04-03', name: 'Sexta-feira Santa' },
    { day: '2026-12-24', name: 'Véspera de Natal' },
  ]);
  expect((await other.client.get(other, base)).json().data).toEqual([]);
  expect((await other.client.delete(other, `${base}/2026-12-24`)).statusCode).toBe(404);

  t.clock.advance(1000);
  expect((await member.client.delete(member, `${base}/2026-04-03`)).json().data).toEqual({ day: '2026-04-03', movedDeadlines: 0 });
  expect((await member.client.delete(member, `${base}/2026-04-03`)).json().error.code).toBe('NOT_FOUND');
  expect((await auditOf(t, member.companyId!, 'settings.changed')).map((r) => r.details)).toEqual([
    { section: 'holidays', added: { day: '2026-12-24', name: 'Recesso' } },
    { section: 'holidays', added: { day: '2026-04-03', name: 'Sexta-feira Santa' } },
    { section: 'holidays', added: { day: '2026-12-24', name: 'Véspera de Natal' } },
    { section: 'holidays', removed: { day: '2026-04-03' } },
  ]);
});

it('refuses a day that is not one and a name out of bounds, by field', async () => {
  const member = await signInPanelUser(t, { permissions: ['settings'] });
  const base = '/panel/api/settings/holidays';
  for (const [body, path] of [
    [{ day: '2026-02-30', name: 'x' }, 'day'],
    [{ day: 'tomorrow', name: 'x' }, 'day'],
    [{ day: '2026-05-01', name: '  ' }, 'name'],
    [{ day: '2026-05-01', name: 'x'.repeat(201) }, 'name'],
    [{ day: '2026-05-01' }, 'name'],
  ] as const) {
    const res = await member.client.post(member, base, body);
    expect(res.statusCode, JSON.stringify(body)).toBe(400);
    expect(res.json().error.details.fields).toContainEqual(expect.objectContaining({ path }));
  }
  expect((await member.client.delete(member, `${base}/not-a-day`)).statusCode).toBe(400);
  expect((await member.client.get(member, base)).json().data).toEqual([]);
});
