import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { emit, goalData } from '../../../test/webhooks.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const DAY = 86_400_000;

/** Emits one event per second, alternating ping and goal; returns them oldest first. */
async function emitSeries(companyId: string, count: number) {
  const emitted = [];
  for (let i = 0; i < count; i++) {
    t.clock.advance(1000);
    emitted.push(i % 2 ? await emit(t, companyId, 'form.goal_reached', goalData(i)) : await emit(t, companyId, 'ping', { message: `#${i}` }));
  }
  return emitted;
}

async function scan(token: string, query: string) {
  const pages = [];
  let url = `/v1/events?${query}`;
  for (;;) {
    const res = await t.get(token, url);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    pages.push(body);
    if (!body.meta.hasMore) return pages;
    url = `/v1/events?${query}&cursor=${encodeURIComponent(body.meta.nextCursor)}`;
  }
}

describe('GET /v1/events', () => {
  it('pages newest first through the envelopes, with total on the first page only', async () => {
    const { company, token } = await t.tenant();
    const emitted = await emitSeries(company.id, 5);
    const pages = await scan(token, 'limit=2');
    expect(pages.map((p) => p.meta)).toEqual([
      { limit: 2, hasMore: true, nextCursor: expect.any(String), total: 5 },
      { limit: 2, hasMore: true, nextCursor: expect.any(String) },
      { limit: 2, hasMore: false, nextCursor: null },
    ]);
    expect(pages.flatMap((p) => p.data)).toEqual([...emitted].reverse());
    expect(pages[0].data[0]).toEqual({ id: emitted[4].id, type: 'ping', version: 1, occurredAt: t.clock.now().toISOString(), companyId: company.id, data: { message: '#4' } });
  });

  it('filters by type and by since (inclusive), and offers only the last 30 days', async () => {
    const { company, token } = await t.tenant();
    const old = await emit(t, company.id, 'ping', { message: 'a month ago' });
    t.clock.advance(30 * DAY);
    const emitted = await emitSeries(company.id, 4);

    const all = await scan(token, 'limit=100');
    expect(all[0].data.map((e: { id: string }) => e.id)).not.toContain(old.id);
    expect(all[0].meta.total).toBe(4);

    const goals = await scan(token, 'type=form.goal_reached');
    expect(goals[0].data.map((e: { id: string }) => e.id)).toEqual([emitted[3].id, emitted[1].id]);

    const since = await scan(token, `since=${encodeURIComponent(emitted[2].occurredAt)}`);
    expect(since[0].data.map((e: { id: string }) => e.id)).toEqual([emitted[3].id, emitted[2].id]);
    const offset = new Date(emitted[2].occurredAt).toISOString().replace('Z', '+00:00');
    expect((await scan(token, `since=${encodeURIComponent(offset)}`))[0].meta.total).toBe(2);
  });

  it("shows only the key's company", async () => {
    const mine = await t.tenant();
    const other = await t.tenant();
    await emitSeries(other.company.id, 2);
    const res = await t.get(mine.token, '/v1/events');
    expect(res.json()).toEqual({ success: true, data: [], meta: { limit: 20, hasMore: false, nextCursor: null, total: 0 } });
  });

  it('refuses page, bad cursors and bad filters', async () => {
    const { company, token } = await t.tenant();
    await emitSeries(company.id, 3);
    const first = (await t.get(token, '/v1/events?limit=1&type=ping')).json();
    const code = async (query: string) => (await t.get(token, `/v1/events?${query}`)).json().error?.code;

    expect(await code('page=2&limit=0')).toBe('PAGE_NOT_SUPPORTED');
    expect(await code('cursor=garbage')).toBe('INVALID_CURSOR');
    expect(await code(`limit=1&cursor=${encodeURIComponent(first.meta.nextCursor)}`)).toBe('INVALID_CURSOR');
    const intruder = await t.tenant();
    expect((await t.get(intruder.token, `/v1/events?limit=1&type=ping&cursor=${encodeURIComponent(first.meta.nextCursor)}`)).json().error.code).toBe(
      'INVALID_CURSOR',
    );
    for (const query of ['limit=0', 'limit=101', 'type=form.deleted', 'since=yesterday', 'since=2026-03-01', 'unknown=1']) {
      const res = await t.get(token, `/v1/events?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('VALIDATION_ERROR');
    }
  });
});
