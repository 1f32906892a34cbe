import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { startOutboundLoop } from '../outbound/loop.js';
import { emailKind } from '../messaging/email-kind.js';
import { generateWebhookSecret, signPayload } from '../webhooks/signature.js';

const SECRET = generateWebhookSecret();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { callbackSecret: SECRET, whatsappAppSecret: 'app-secret', whatsappVerifyToken: 'verify-me' } });
});
afterAll(() => t.close());

/** An invite sent by e-mail through the loop (dev mailbox); answers its provider message id. */
async function sentInvite(email = 'ana@school.edu') {
  const tenant = await t.tenant();
  const survey = await createSurvey(t, tenant.company.id);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const invite = (await t.post(tenant.token, base, { email })).json().data;
  await t.post(tenant.token, `${base}/send`, { channel: 'email' });
  const loop = await startOutboundLoop(t.ctx, emailKind(t.ctx), { listen: false, pollIntervalMs: null });
  await loop.drain();
  await loop.stop();
  const { rows } = await t.ctx.db.execute<{ provider_message_id: string }>(sql`SELECT provider_message_id FROM invite_messages WHERE invite_id = ${invite.id}`);
  return { ...tenant, base, invite, messageId: rows[0].provider_message_id };
}

function signed(body: object, secret = SECRET) {
  const payload = JSON.stringify(body);
  const timestamp = Math.floor(t.clock.now().getTime() / 1000);
  const id = 'msg_1';
  return {
    payload,
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signPayload({ id, timestamp, body: payload }, [secret]) },
  };
}

const post = (url: string, { payload, headers }: { payload: string; headers: Record<string, string> }) => t.app.inject({ method: 'POST', url, payload, headers });

async function state(companyId: string, inviteId: string) {
  const { rows: invite } = await t.ctx.db.execute<{ status: string }>(sql`SELECT status FROM invites WHERE id = ${inviteId}`);
  const { rows: events } = await t.ctx.db.execute<{ type: string; data: any }>(sql`SELECT type, data FROM events WHERE company_id = ${companyId} AND type IN ('invite.delivered', 'invite.failed') ORDER BY occurred_at, id`);
  const { rows: suppressed } = await t.ctx.db.execute(sql`SELECT address, reason FROM suppressions WHERE company_id = ${companyId}`);
  return { status: invite[0].status, events, suppressed };
}

describe('POST /callbacks/email/generic (Standard Webhooks signed)', () => {
  it('delivered → invite.delivered once, even when the provider repeats it', async () => {
    const s = await sentInvite();
    for (let i = 0; i < 2; i++) expect((await post('/callbacks/email/generic', signed({ type: 'delivered', messageId: s.messageId }))).statusCode).toBe(200);
    const after = await state(s.company.id, s.invite.id);
    expect(after.status).toBe('delivered');
    expect(after.events).toEqual([{ type: 'invite.delivered', data: expect.objectContaining({ status: 'delivered', channel: 'email', failReason: null }) }]);
  });

  it('a bounce suppresses the address (invite.failed bounced) and the next send skips it as suppressed', async () => {
    const s = await sentInvite('bounce@school.edu');
    expect((await post('/callbacks/email/generic', signed({ type: 'bounced', messageId: `<${s.messageId}>` }))).statusCode).toBe(200);
    const after = await state(s.company.id, s.invite.id);
    expect(after).toMatchObject({ status: 'failed', suppressed: [{ address: 'bounce@school.edu', reason: 'bounced' }] });
    expect(after.events).toEqual([{ type: 'invite.failed', data: expect.objectContaining({ failReason: 'bounced' }) }]);
    const next = (await t.post(s.token, `${s.base}/send`, { channel: 'email' })).json().data;
    expect(next).toMatchObject({ queued: 0, skipped: [{ id: s.invite.id, reason: 'suppressed' }] });
  });

  it('a late delivery receipt never moves an opened invite back', async () => {
    const s = await sentInvite();
    await t.ctx.db.execute(sql`UPDATE invites SET status = 'opened' WHERE id = ${s.invite.id}`);
    await post('/callbacks/email/generic', signed({ type: 'delivered', messageId: s.messageId }));
    expect(await state(s.company.id, s.invite.id)).toMatchObject({ status: 'opened', events: [] });
  });

  it('a bad, missing or stale signature is 401 and changes nothing; an unknown message id is 200 and changes nothing', async () => {
    const s = await sentInvite();
    const forged = signed({ type: 'bounced', messageId: s.messageId }, generateWebhookSecret());
    expect((await post('/callbacks/email/generic', forged)).statusCode).toBe(401);
    const unsigned = signed({ type: 'bounced', messageId: s.messageId });
    expect((await post('/callbacks/email/generic', { payload: unsigned.payload, headers: { 'content-type': 'application/json' } })).statusCode).toBe(401);
    const tampered = signed({ type: 'delivered', messageId: s.messageId });
    expect((await post('/callbacks/email/generic', { ...tampered, payload: tampered.payload.replace('delivered', 'bounced') })).statusCode).toBe(401);
    const stale = signed({ type: 'bounced', messageId: s.messageId });
    t.clock.advance(10 * 60_000);
    expect((await post('/callbacks/email/generic', stale)).statusCode).toBe(401);
    expect((await post('/callbacks/email/generic', signed({ type: 'bounced', messageId: 'unknown@nowhere' }))).statusCode).toBe(200);
    expect(await state(s.company.id, s.invite.id)).toEqual({ status: 'sent', events: [], suppressed: [] });
    expect((await post('/callbacks/email/generic', signed({ type: 'exploded', messageId: s.messageId }))).statusCode).toBe(400);
    expect((await post('/callbacks/email/nope', signed({}))).statusCode).toBe(404);
  });
});

describe('POST /callbacks/email/postmark', () => {
  const auth = (password: string) => `Basic ${Buffer.from(`postmark:${password}`).toString('base64')}`;
  it('reads Delivery, HardBounce and SpamComplaint behind the callback credentials', async () => {
    const s = await sentInvite('pm@school.edu');
    const send = (body: object, password = SECRET) =>
      t.app.inject({ method: 'POST', url: '/callbacks/email/postmark', payload: body, headers: { authorization: auth(password) } });
    expect((await send({ RecordType: 'Bounce', Type: 'HardBounce', MessageID: s.messageId }, 'wrong')).statusCode).toBe(401);
    expect((await send({ RecordType: 'Bounce', Type: 'SoftBounce', MessageID: s.messageId })).statusCode).toBe(200);
    expect((await state(s.company.id, s.invite.id)).suppressed).toEqual([]);
    expect((await send({ RecordType: 'SpamComplaint', MessageID: s.messageId, Email: 'pm@school.edu' })).statusCode).toBe(200);
    expect((await state(s.company.id, s.invite.id)).suppressed).toEqual([{ address: 'pm@school.edu', reason: 'complained' }]);
  });
});

describe('/callbacks/whatsapp', () => {
  it('answers the hub.challenge only with the verify token', async () => {
    const ok = await t.app.inject({ url: '/callbacks/whatsapp?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=12345' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('12345');
    expect((await t.app.inject({ url: '/callbacks/whatsapp?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1' })).statusCode).toBe(401);
  });

  it('refuses a POST without a valid X-Hub-Signature-256 and applies statuses[] with one', async () => {
    const s = await sentInvite();
    await t.ctx.db.execute(sql`UPDATE invite_messages SET channel = 'whatsapp', provider_message_id = 'wamid.1' WHERE invite_id = ${s.invite.id}`);
    const payload = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ changes: [{ value: { statuses: [{ id: 'wamid.1', status: 'read' }] } }] }] });
    const sign = (secret: string) => `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`;
    const call = (signature: string) => t.app.inject({ method: 'POST', url: '/callbacks/whatsapp', payload, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature } });
    expect((await call(sign('other'))).statusCode).toBe(401);
    expect((await state(s.company.id, s.invite.id)).status).toBe('sent');
    expect((await call(sign('app-secret'))).statusCode).toBe(200);
    expect((await state(s.company.id, s.invite.id)).status).toBe('delivered');
  });
});
