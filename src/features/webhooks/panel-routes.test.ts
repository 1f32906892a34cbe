import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/harness.js';
import { signInPanelUser, type PanelClient, type PanelSignIn } from '../../../test/panel.js';
import { emit, goalData, verifiesWith, webhookTestbed, type Receiver } from '../../../test/webhooks.js';
import type { DeliveryLoop } from './deliver-loop.js';

const bed = webhookTestbed();
let t: TestApp;
let receiver: Receiver;
let loop: DeliveryLoop;
let member: PanelSignIn & { client: PanelClient };
let panel: PanelClient;
beforeAll(async () => {
  ({ t, receiver, loop } = bed);
  member = await signInPanelUser(t, { permissions: ['integrations'] });
  panel = member.client;
});

const audits = async (companyId: string, action: string) =>
  (await t.ctx.pool.query('SELECT actor_user_id, details FROM audit_records WHERE company_id = $1 AND action = $2 ORDER BY created_at, id', [companyId, action])).rows;

async function createWebhook(body: object = { url: receiver.url() }, session: PanelSignIn = member) {
  const res = await panel.post(session, '/panel/api/webhooks', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { subscription: { id: string; url: string; enabled: boolean }; secret: string };
}

const patch = (session: PanelSignIn, url: string, payload: object) => panel.request(session, { method: 'PATCH', url, payload });
const deliveries = async (query: string, session: PanelSignIn = member) => panel.get(session, `/panel/api/webhooks/deliveries?${query}`);

describe('panel webhooks', () => {
  it('creates a subscription whose secret, shown once, signs the Test ping; the delivery log shows the attempt', async () => {
    receiver.respond = () => ({ status: 200, body: 'pong' });
    const { subscription, secret } = await createWebhook({ url: receiver.url(), types: ['form.goal_reached'], description: 'SIS' });
    expect(subscription).toMatchObject({ url: receiver.url(), types: ['form.goal_reached'], enabled: true, description: 'SIS' });
    expect((await panel.get(member, '/panel/api/webhooks')).body).not.toContain(secret);
    expect(await audits(member.companyId!, 'webhook.created')).toContainEqual({
      actor_user_id: member.user.id,
      details: { subscriptionId: subscription.id, url: receiver.url(), types: ['form.goal_reached'] },
    });

    const ping = await panel.post(member, `/panel/api/webhooks/${subscription.id}/ping`);
    expect(ping.statusCode).toBe(202);
    const { eventId } = ping.json().data;
    const pending = (await deliveries(`subscriptionId=${subscription.id}&eventId=${eventId}`)).json().data;
    expect(pending).toEqual([expect.objectContaining({ eventType: 'ping', status: 'pending', attempts: 0, log: [] })]);

    await loop.drain();
    expect(receiver.received).toHaveLength(1);
    expect(verifiesWith(secret, receiver.received[0], t.clock)).toBe(true);
    const [delivered] = (await deliveries(`subscriptionId=${subscription.id}&eventId=${eventId}`)).json().data;
    expect(delivered).toMatchObject({ status: 'succeeded', attempts: 1, log: [expect.objectContaining({ attempt: 1, statusCode: 200, responseBody: 'pong', error: null })] });
  });

  it('refuses a bad URL and an unknown event type beside their fields, and creates nothing', async () => {
    const res = await panel.post(member, '/panel/api/webhooks', { url: 'ftp://example.test/x', types: ['nope', '*'] });
    expect(res.statusCode).toBe(400);
    const paths = res.json().error.details.fields.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['url', 'types']));
    const missing = await panel.post(member, '/panel/api/webhooks', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details.fields).toContainEqual(expect.objectContaining({ path: 'url' }));
    expect((await t.ctx.pool.query(`SELECT count(*)::int AS n FROM webhook_subscriptions WHERE url LIKE 'ftp:%'`)).rows[0].n).toBe(0);
  });

  it('disables (Test is refused, pending deliveries wait) and enables again', async () => {
    const { subscription } = await createWebhook();
    const off = await panel.post(member, `/panel/api/webhooks/${subscription.id}/disable`);
    expect(off.json().data).toMatchObject({ enabled: false, disabledReason: 'operator', disabledAt: t.clock.now().toISOString() });
    const refused = await panel.post(member, `/panel/api/webhooks/${subscription.id}/ping`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.fields).toEqual([expect.objectContaining({ path: 'subscription' })]);
    const on = await panel.post(member, `/panel/api/webhooks/${subscription.id}/enable`);
    expect(on.json().data).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    expect((await panel.post(member, `/panel/api/webhooks/${subscription.id}/ping`)).statusCode).toBe(202);
  });

  it('sends the Test ping with a custom message in data.message, bounded; blank or absent sends the default', async () => {
    const { subscription } = await createWebhook();
    const ping = (body?: object) => panel.post(member, `/panel/api/webhooks/${subscription.id}/ping`, body);
    expect((await ping({ message: 'Hello from the SIS team <b>' })).statusCode).toBe(202);
    expect((await ping({ message: '   ' })).statusCode).toBe(202);
    expect((await ping()).statusCode).toBe(202);
    const tooLong = await ping({ message: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.details.fields).toEqual([expect.objectContaining({ path: 'message' })]);
    expect((await ping({ message: 'hi', extra: 1 })).statusCode).toBe(400);
    await loop.drain();
    const messages = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { message: string } });
    expect(messages.map((m) => m.type)).toEqual(['ping', 'ping', 'ping']);
    expect(messages.map((m) => m.data.message).sort()).toEqual(['Hello from the SIS team <b>', 'Test event from Quorum', 'Test event from Quorum']);
  });

  it('edits the URL and event types, audited as webhook.updated with from and to; the secret still signs', async () => {
    const { subscription, secret } = await createWebhook({ url: receiver.url('/old'), types: ['form.goal_reached'] });
    const res = await patch(member, `/panel/api/webhooks/${subscription.id}`, { url: receiver.url('/new'), types: ['ping', 'form.goal_reached', 'ping'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: subscription.id, url: receiver.url('/new'), types: ['ping', 'form.goal_reached'], enabled: true });
    expect(await audits(member.companyId!, 'webhook.updated')).toContainEqual({
      actor_user_id: member.user.id,
      details: {
        subscriptionId: subscription.id,
        from: { url: receiver.url('/old'), types: ['form.goal_reached'] },
        to: { url: receiver.url('/new'), types: ['ping', 'form.goal_reached'] },
      },
    });

    const typesOnly = await patch(member, `/panel/api/webhooks/${subscription.id}`, { types: ['*'] });
    expect(typesOnly.json().data).toMatchObject({ url: receiver.url('/new'), types: ['*'] });
    const unchanged = await patch(member, `/panel/api/webhooks/${subscription.id}`, { types: ['*'] });
    expect(unchanged.statusCode).toBe(200);
    const updates = (await audits(member.companyId!, 'webhook.updated')).filter((a) => a.details.subscriptionId === subscription.id);
    expect(updates.map((a) => a.details)).toEqual([
      expect.objectContaining({ to: { url: receiver.url('/new'), types: ['ping', 'form.goal_reached'] } }),
      { subscriptionId: subscription.id, from: { types: ['ping', 'form.goal_reached'] }, to: { types: ['*'] } },
    ]);

    await panel.post(member, `/panel/api/webhooks/${subscription.id}/ping`);
    await loop.drain();
    expect(receiver.received.map((r) => r.path)).toEqual(['/new']);
    expect(verifiesWith(secret, receiver.received[0], t.clock)).toBe(true);
  });

  it('refuses an edit as creation would (URL, types, the private-address guard), and changes nothing', async () => {
    const { subscription } = await createWebhook({ url: receiver.url(), types: ['ping'] });
    const edit = (body: object) => patch(member, `/panel/api/webhooks/${subscription.id}`, body);
    const bad = await edit({ url: 'ftp://example.test/x', types: ['nope'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['url', 'types[0]']));
    for (const body of [{}, { types: [] }, { types: ['*', 'ping'] }, { url: 'x'.repeat(2001) }, { description: 'not editable here' }]) {
      expect((await edit(body)).statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    const config = t.ctx.config as { webhookAllowPrivateTargets: boolean };
    config.webhookAllowPrivateTargets = false;
    try {
      const guarded = await edit({ url: 'http://169.254.169.254/latest/meta-data' });
      expect(guarded.statusCode).toBe(400);
      expect(guarded.json().error.details.fields).toEqual([expect.objectContaining({ path: 'url', code: 'forbidden_target' })]);
    } finally {
      config.webhookAllowPrivateTargets = true;
    }
    const { rows } = await t.ctx.pool.query('SELECT url, types FROM webhook_subscriptions WHERE id = $1', [subscription.id]);
    expect(rows[0]).toEqual({ url: receiver.url(), types: ['ping'] });
    expect((await audits(member.companyId!, 'webhook.updated')).filter((a) => a.details.subscriptionId === subscription.id)).toEqual([]);
  });

  it('rotates the secret: the new one is shown once, both sign during the overlap, the act is audited', async () => {
    const { subscription, secret: old } = await createWebhook();
    const res = await panel.post(member, `/panel/api/webhooks/${subscription.id}/rotate-secret`);
    expect(res.statusCode).toBe(200);
    const { secret, subscription: rotated } = res.json().data;
    expect(secret).not.toBe(old);
    expect(rotated.previousSecretExpiresAt).toBe(new Date(t.clock.now().getTime() + 86_400_000).toISOString());
    expect(await audits(member.companyId!, 'webhook.secret_rotated')).toContainEqual({ actor_user_id: member.user.id, details: { subscriptionId: subscription.id } });

    await panel.post(member, `/panel/api/webhooks/${subscription.id}/ping`);
    await loop.drain();
    const [request] = receiver.received;
    expect(verifiesWith(secret, request, t.clock)).toBe(true);
    expect(verifiesWith(old, request, t.clock)).toBe(true);
  });

  it('resends one delivery as a new delivery and recovers a period of events', async () => {
    const { subscription } = await createWebhook();
    const since = t.clock.now().toISOString();
    await emit(t, member.companyId!, 'form.goal_reached', goalData());
    await loop.drain();
    const [first] = (await deliveries(`subscriptionId=${subscription.id}`)).json().data;
    expect(first).toMatchObject({ eventType: 'form.goal_reached', status: 'succeeded' });

    const resent = await panel.post(member, `/panel/api/webhooks/deliveries/${first.id}/resend`);
    expect(resent.statusCode).toBe(202);
    expect(resent.json().data).toMatchObject({ resendOf: first.id, eventId: first.eventId, subscriptionId: subscription.id });

    const recovered = await panel.post(member, '/panel/api/webhooks/recover', { since, subscriptionId: subscription.id });
    expect(recovered.statusCode).toBe(202);
    expect(recovered.json().data).toEqual({ queued: 1, since, subscriptionId: subscription.id });
    await loop.drain();
    const log = (await deliveries(`subscriptionId=${subscription.id}`)).json().data;
    expect(log).toHaveLength(3);
    expect(log.every((d: { status: string; eventId: string }) => d.status === 'succeeded' && d.eventId === first.eventId)).toBe(true);
    expect(receiver.received).toHaveLength(3);

    const future = await panel.post(member, '/panel/api/webhooks/recover', { since: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.details.fields).toEqual([expect.objectContaining({ path: 'since' })]);
  });

  it('pages the delivery log beyond the newest 50 with a cursor bound to the company and the filters', async () => {
    const { subscription } = await createWebhook();
    for (let i = 0; i < 53; i += 1) await panel.post(member, `/panel/api/webhooks/${subscription.id}/ping`, { message: `n${i}` });
    const first = (await deliveries(`subscriptionId=${subscription.id}`)).json();
    expect(first.data).toHaveLength(50);
    expect(first.meta).toMatchObject({ limit: 50, hasMore: true, nextCursor: expect.any(String) });
    const rest = (await deliveries(`subscriptionId=${subscription.id}&cursor=${encodeURIComponent(first.meta.nextCursor)}`)).json();
    expect(rest.data).toHaveLength(3);
    expect(rest.meta).toMatchObject({ hasMore: false, nextCursor: null });
    const ids = [...first.data, ...rest.data].map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(53);
    expect(ids).toEqual([...ids].sort().reverse());

    const other = await signInPanelUser(t, { permissions: ['integrations'] });
    for (const res of [
      await deliveries(`subscriptionId=${subscription.id}&cursor=${encodeURIComponent(first.meta.nextCursor)}`, other),
      await deliveries(`subscriptionId=${subscription.id}&status=pending&cursor=${encodeURIComponent(first.meta.nextCursor)}`),
      await deliveries('cursor='),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('INVALID_CURSOR');
    }
    expect((await deliveries('page=2')).json().error.code).toBe('PAGE_NOT_SUPPORTED');
  });

  it('checks the delivery log filter', async () => {
    const res = await deliveries('status=lost&subscriptionId=nope');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['status']));
    expect((await deliveries('limit=0')).statusCode).toBe(400);
  });

  it('deletes a subscription with its log, audited', async () => {
    const { subscription } = await createWebhook();
    const res = await panel.delete(member, `/panel/api/webhooks/${subscription.id}`);
    expect(res.statusCode).toBe(200);
    expect((await panel.get(member, '/panel/api/webhooks')).json().data.map((s: { id: string }) => s.id)).not.toContain(subscription.id);
    expect(await audits(member.companyId!, 'webhook.deleted')).toContainEqual({ actor_user_id: member.user.id, details: { subscriptionId: subscription.id, url: receiver.url() } });
    expect((await panel.delete(member, `/panel/api/webhooks/${subscription.id}`)).statusCode).toBe(404);
  });

  it("keeps companies apart: another company's subscriptions and deliveries are hidden (404) and untouched", async () => {
    const other = await signInPanelUser(t, { permissions: ['integrations'] });
    const { subscription } = await createWebhook({ url: receiver.url() }, other);
    await panel.post(other, `/panel/api/webhooks/${subscription.id}/ping`);
    const [theirs] = (await deliveries(`subscriptionId=${subscription.id}`, other)).json().data;

    expect((await panel.get(member, '/panel/api/webhooks')).json().data.map((s: { id: string }) => s.id)).not.toContain(subscription.id);
    expect((await deliveries(`subscriptionId=${subscription.id}`)).json().data).toEqual([]);
    for (const path of ['disable', 'enable', 'rotate-secret', 'ping']) {
      const res = await panel.post(member, `/panel/api/webhooks/${subscription.id}/${path}`);
      expect(res.statusCode, path).toBe(404);
    }
    expect((await patch(member, `/panel/api/webhooks/${subscription.id}`, { url: 'https://attacker.test/' })).statusCode).toBe(404);
    expect((await patch(member, '/panel/api/webhooks/not-a-uuid', { types: ['ping'] })).statusCode).toBe(404);
    expect((await panel.delete(member, `/panel/api/webhooks/${subscription.id}`)).statusCode).toBe(404);
    expect((await panel.post(member, `/panel/api/webhooks/deliveries/${theirs.id}/resend`)).statusCode).toBe(404);
    expect((await panel.post(member, '/panel/api/webhooks/recover', { since: t.clock.now().toISOString(), subscriptionId: subscription.id })).statusCode).toBe(404);
    expect((await t.ctx.pool.query('SELECT enabled, url FROM webhook_subscriptions WHERE id = $1', [subscription.id])).rows[0]).toEqual({ enabled: true, url: receiver.url() });
  });

  it('needs the integrations permission', async () => {
    const outsider = await signInPanelUser(t, { permissions: ['responses'] });
    for (const res of [await panel.get(outsider, '/panel/api/webhooks'), await panel.post(outsider, '/panel/api/webhooks', { url: receiver.url() })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.details).toEqual({ permission: 'integrations' });
    }
    expect((await panel.get(null, '/panel/api/webhooks/deliveries')).statusCode).toBe(401);
  });
});
