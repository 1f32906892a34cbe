import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { PanelClient, signInPanelUser, type PanelSignIn } from '../../../test/panel.js';
import { recordAudit } from './record-audit.js';

let t: TestApp;
let client: PanelClient;
let owner: PanelSignIn;
let other: PanelSignIn;
const actorId = '0190f0f0-0000-7000-8000-000000000001';

beforeAll(async () => {
  t = await startTestApp();
  client = new PanelClient(t);
  owner = await signInPanelUser(t, { owner: true });
  other = await signInPanelUser(t, { owner: true });
  // 30 records an hour apart, of two families and two actors, plus one of another company
  for (let i = 0; i < 30; i++) {
    t.clock.advance(3600_000);
    await recordAudit(t.ctx.db, t.ctx, {
      companyId: owner.companyId,
      actor: i % 3 === 0 ? { userId: actorId, email: 'actor@school.test' } : { userId: owner.user.id, email: owner.user.email },
      action: i % 2 === 0 ? 'key.created' : 'member.removed',
      details: { n: i },
      ip: '203.0.113.7',
    });
  }
  await recordAudit(t.ctx.db, t.ctx, { companyId: other.companyId, actor: { userId: other.user.id, email: other.user.email }, action: 'key.created', details: { n: -1 }, ip: null });
  // the sign-ins happened before the records; the sessions must stay alive after the clock moved
  owner = { ...owner, ...(await client.signIn(owner.user.email, owner.password)) };
  other = { ...other, ...(await client.signIn(other.user.email, other.password)) };
});
afterAll(() => t?.close());

const numbers = (res: { json(): { data: Array<{ details: { n?: number } }> } }) => res.json().data.map((e) => e.details.n).filter((n) => n !== undefined);

describe('GET /panel/api/audit', () => {
  it('pages through the company’s records newest first with a cursor, the total on the first page', async () => {
    const first = await client.get(owner, '/panel/api/audit?limit=20');
    expect(first.statusCode).toBe(200);
    const meta = first.json().meta;
    expect(meta).toMatchObject({ limit: 20, hasMore: true });
    expect(meta.total).toBeGreaterThanOrEqual(30);
    const seen = [...first.json().data];
    let cursor = meta.nextCursor;
    while (cursor) {
      const page = await client.get(owner, `/panel/api/audit?limit=20&cursor=${encodeURIComponent(cursor)}`);
      expect(page.statusCode).toBe(200);
      expect(page.json().meta.total).toBeUndefined();
      seen.push(...page.json().data);
      cursor = page.json().meta.nextCursor;
    }
    expect(seen).toHaveLength(meta.total);
    const ns = seen.map((e) => e.details.n).filter((n) => n !== undefined);
    expect(ns).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));
    expect(ns).not.toContain(-1);
    expect(seen.find((e) => e.details.n !== undefined)).toMatchObject({ action: 'member.removed', actor: { userId: owner.user.id }, ip: '203.0.113.7' });
  });

  it('filters by action, action family, actor and time, ANDed', async () => {
    const byAction = await client.get(owner, '/panel/api/audit?action=key.created&limit=100');
    expect(numbers(byAction)).toEqual([28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0]);
    const byFamily = await client.get(owner, '/panel/api/audit?action=member.&limit=100');
    expect(numbers(byFamily)).toHaveLength(15);
    const byActor = await client.get(owner, `/panel/api/audit?actor=${actorId}&action=key.created&limit=100`);
    expect(numbers(byActor)).toEqual([24, 18, 12, 6, 0]);
    const start = new Date(Date.parse('2026-03-02T09:00:00.000Z') + 5 * 3600_000).toISOString();
    const end = new Date(Date.parse('2026-03-02T09:00:00.000Z') + 8 * 3600_000).toISOString();
    const byTime = await client.get(owner, `/panel/api/audit?from=${start}&to=${end}&limit=100`);
    expect(numbers(byTime)).toEqual([6, 5, 4]);
  });

  it('refuses a cursor reused with other filters or by another company, a page parameter and bad filters', async () => {
    const first = await client.get(owner, '/panel/api/audit?limit=5&action=key.created');
    const cursor = encodeURIComponent(first.json().meta.nextCursor);
    const otherFilters = await client.get(owner, `/panel/api/audit?limit=5&cursor=${cursor}`);
    expect(otherFilters.statusCode).toBe(400);
    expect(otherFilters.json().error.code).toBe('INVALID_CURSOR');
    const otherCompany = await client.get(other, `/panel/api/audit?limit=5&action=key.created&cursor=${cursor}`);
    expect(otherCompany.json().error.code).toBe('INVALID_CURSOR');
    expect((await client.get(owner, '/panel/api/audit?page=2')).json().error.code).toBe('PAGE_NOT_SUPPORTED');
    const bad = await client.get(owner, '/panel/api/audit?actor=someone&from=yesterday&action=DROP%20TABLE');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(expect.arrayContaining(['action']));
    const backwards = await client.get(owner, '/panel/api/audit?from=2026-03-03T00:00:00Z&to=2026-03-02T00:00:00Z');
    expect(backwards.json().error.details.fields).toEqual([expect.objectContaining({ path: 'to', code: 'invalid_value' })]);
  });

  it('shows only the caller’s company, and needs settings', async () => {
    const res = await client.get(other, '/panel/api/audit?action=key.created');
    expect(numbers(res)).toEqual([-1]);
    const member = await signInPanelUser(t, { companyId: owner.companyId, permissions: ['forms'] });
    expect((await client.get(member, '/panel/api/audit')).statusCode).toBe(403);
    const admin = await signInPanelUser(t, { companyId: owner.companyId, permissions: ['settings'] });
    expect((await client.get(admin, '/panel/api/audit')).statusCode).toBe(200);
  });
});
