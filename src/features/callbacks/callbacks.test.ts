import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { startOutboundLoop } from '../../platform/outbound/loop.js';
import { emailKind } from '../messaging/email-kind.js';
import { generateWebhookSecret, signPayload } from '../../lib/webhook-signature.js';

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

// Postmark's webhook documents exactly as its documentation shows them: MessageID is Postmark's
// own id, never the Message-ID we generate; Metadata, Recipient and Email are filled per test.
const POSTMARK_DELIVERY = {
  RecordType: 'Delivery',
  MessageStream: 'outbound',
  MessageID: '883953f4-6105-42a2-a16a-77a8eac79483',
  Recipient: 'john@example.com',
  DeliveredAt: '2019-11-05T16:33:54.9070259Z',
  Details: 'Test delivery webhook details',
  Tag: 'welcome-email',
  ServerID: 23,
  Metadata: { a_key: 'a_value', b_key: 'b_value' },
};
const POSTMARK_BOUNCE = {
  RecordType: 'Bounce',
  MessageStream: 'transactional',
  ID: 42,
  Type: 'HardBounce',
  TypeCode: 1,
  Name: 'Hard bounce',
  Tag: 'Test',
  MessageID: '883953f4-6105-42a2-a16a-77a8eac79483',
  Metadata: { a_key: 'a_value', b_key: 'b_value' },
  ServerID: 23,
  Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
  Details: 'Test bounce details',
  Email: 'john@example.com',
  From: 'sender@example.com',
  BouncedAt: '2019-11-05T16:33:54.9070259Z',
  DumpAvailable: true,
  Inactive: true,
  CanActivate: true,
  Subject: 'Test subject',
  Content: '<Full dump of bounce>',
};
const POSTMARK_SPAM_COMPLAINT = {
  RecordType: 'SpamComplaint',
  MessageStream: 'outbound',
  ID: 42,
  Type: 'SpamComplaint',
  TypeCode: 512,
  Name: 'Spam complaint',
  Tag: 'Test',
  MessageID: '00000000-0000-0000-0000-000000000000',
  Metadata: { a_key: 'a_value', b_key: 'b_value' },
  ServerID: 1234,
  Description: '',
  Details: 'Test spam complaint details',
  Email: 'john@example.com',
  From: 'sender@example.com',
  BouncedAt: '2019-11-05T16:33:54.9070259Z',
  DumpAvailable: true,
  Inactive: true,
  CanActivate: false,
  Subject: 'Test subject',
  Content: '<Abuse report dump>',
};
// A recipient's own unsubscribe: SuppressionReason ManualSuppression with Origin Recipient.
const POSTMARK_SUBSCRIPTION_CHANGE = {
  RecordType: 'SubscriptionChange',
  MessageID: '883953f4-6105-42a2-a16a-77a8eac79483',
  ServerID: 123456,
  MessageStream: 'outbound',
  ChangedAt: '2020-02-01T10:53:34.416071Z',
  Recipient: 'bounced-address@wildbit.com',
  Origin: 'Recipient',
  SuppressSending: true,
  SuppressionReason: 'ManualSuppression',
  Tag: 'my-tag',
  Metadata: { example: 'value', example_2: 'value' },
};
// The older server-level webhooks, without RecordType: the delivery (ServerId, no MessageStream) and the bounce.
const POSTMARK_LEGACY_DELIVERY = {
  ServerId: 23,
  MessageID: '883953f4-6105-42a2-a16a-77a8eac79483',
  Recipient: 'john@example.com',
  Tag: 'welcome-email',
  DeliveredAt: '2014-08-01T13:28:10.2735393-04:00',
  Details: 'Test delivery webhook details',
  Metadata: { user_id: 43 },
};
// The older bounce webhook: the same fields without RecordType, MessageStream, ServerID, From and Content.
const { RecordType: _r, MessageStream: _m, ServerID: _s, From: _f, Content: _c, ...BOUNCE_FIELDS } = POSTMARK_BOUNCE;
const POSTMARK_LEGACY_BOUNCE = { ...BOUNCE_FIELDS, BouncedAt: '2014-08-01T13:28:10.2735393-04:00', Metadata: { user_id: 43 } };

/** What Postmark returns as Metadata: each X-PM-Metadata-<key> header of the mail as it left, as key → value. */
async function postmarkMetadata(to: string): Promise<Record<string, string>> {
  const { rows } = await t.ctx.db.execute<{ headers: Record<string, string> }>(sql`SELECT headers FROM dev_mail WHERE recipient = ${to}`);
  expect(rows).toHaveLength(1);
  const prefix = 'x-pm-metadata-';
  return Object.fromEntries(Object.entries(rows[0].headers).flatMap(([name, value]) => (name.toLowerCase().startsWith(prefix) ? [[name.slice(prefix.length), value]] : [])));
}

describe('POST /callbacks/email/postmark (documented payloads, matched by the Metadata each e-mail carries)', () => {
  const auth = (password: string) => `Basic ${Buffer.from(`postmark:${password}`).toString('base64')}`;
  const send = (body: unknown, password = SECRET) =>
    t.app.inject({ method: 'POST', url: '/callbacks/email/postmark', payload: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: auth(password) } });
  /** A sent invite and the documented example filled with its address and the Metadata of its e-mail (beside the example's own keys). */
  async function sentWithPostmark(email: string) {
    const s = await sentInvite(email);
    const metadata = await postmarkMetadata(email);
    const fill = <T extends { Metadata: object }>(example: T) => ({ ...example, ...('Email' in example ? { Email: email } : { Recipient: email }), Metadata: { ...example.Metadata, ...metadata } });
    return { ...s, fill };
  }

  it("Delivery: the invite is delivered, though MessageID is Postmark's own id", async () => {
    const s = await sentWithPostmark('pm-delivered@school.edu');
    const other = await sentInvite('pm-other@school.edu');
    const answer = await send(s.fill(POSTMARK_DELIVERY));
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toEqual({ received: 1 });
    const after = await state(s.company.id, s.invite.id);
    expect(after.status).toBe('delivered');
    expect(after.events).toEqual([{ type: 'invite.delivered', data: expect.objectContaining({ status: 'delivered', channel: 'email' }) }]);
    expect((await state(other.company.id, other.invite.id)).status).toBe('sent');
  });

  it('HardBounce: the address is suppressed (bounced) and the invite fails; a SoftBounce changes nothing', async () => {
    const s = await sentWithPostmark('pm-bounce@school.edu');
    expect((await send({ ...s.fill(POSTMARK_BOUNCE), Type: 'SoftBounce', TypeCode: 4096, Name: 'Soft bounce' })).json().data).toEqual({ received: 0 });
    expect(await state(s.company.id, s.invite.id)).toEqual({ status: 'sent', events: [], suppressed: [] });
    expect((await send(s.fill(POSTMARK_BOUNCE))).statusCode).toBe(200);
    const after = await state(s.company.id, s.invite.id);
    expect(after).toMatchObject({ status: 'failed', suppressed: [{ address: 'pm-bounce@school.edu', reason: 'bounced' }] });
    expect(after.events).toEqual([{ type: 'invite.failed', data: expect.objectContaining({ failReason: 'bounced' }) }]);
  });

  it('SpamComplaint: the address is suppressed (complained)', async () => {
    const s = await sentWithPostmark('pm-spam@school.edu');
    expect((await send(s.fill(POSTMARK_SPAM_COMPLAINT))).statusCode).toBe(200);
    expect(await state(s.company.id, s.invite.id)).toEqual({ status: 'sent', events: [], suppressed: [{ address: 'pm-spam@school.edu', reason: 'complained' }] });
  });

  it('SubscriptionChange: an unsubscribe suppresses the address (unsubscribed); a reactivation changes nothing', async () => {
    const s = await sentWithPostmark('pm-unsub@school.edu');
    const reactivation = { ...s.fill(POSTMARK_SUBSCRIPTION_CHANGE), MessageID: null, SuppressSending: false, SuppressionReason: null, Tag: null, Origin: 'Customer' };
    expect((await send(reactivation)).json().data).toEqual({ received: 0 });
    expect((await state(s.company.id, s.invite.id)).suppressed).toEqual([]);
    expect((await send(s.fill(POSTMARK_SUBSCRIPTION_CHANGE))).json().data).toEqual({ received: 1 });
    expect(await state(s.company.id, s.invite.id)).toEqual({ status: 'sent', events: [], suppressed: [{ address: 'pm-unsub@school.edu', reason: 'unsubscribed' }] });
    const next = (await t.post(s.token, `${s.base}/send`, { channel: 'email' })).json().data;
    expect(next).toMatchObject({ queued: 0, skipped: [{ id: s.invite.id, reason: 'suppressed' }] });
  });

  it('payloads without RecordType (the older webhooks) are read by their fields', async () => {
    const delivered = await sentWithPostmark('pm-legacy-delivered@school.edu');
    expect((await send(delivered.fill(POSTMARK_LEGACY_DELIVERY))).json().data).toEqual({ received: 1 });
    expect((await state(delivered.company.id, delivered.invite.id)).status).toBe('delivered');
    const bounced = await sentWithPostmark('pm-legacy-bounce@school.edu');
    // The key as the header's name leaves over SMTP (nodemailer capitalises it): compared without case.
    const smtpCased = Object.fromEntries(Object.entries(bounced.fill(POSTMARK_LEGACY_BOUNCE).Metadata).map(([key, value]) => [key === 'quorum-message-id' ? 'Quorum-Message-ID' : key, value]));
    expect((await send({ ...bounced.fill(POSTMARK_LEGACY_BOUNCE), Metadata: smtpCased })).json().data).toEqual({ received: 1 });
    expect(await state(bounced.company.id, bounced.invite.id)).toMatchObject({ status: 'failed', suppressed: [{ address: 'pm-legacy-bounce@school.edu', reason: 'bounced' }] });
  });

  it('refuses wrong credentials (401) and a body that is no object (400); a webhook naming no message of ours is 200 and changes nothing', async () => {
    const s = await sentWithPostmark('pm-misc@school.edu');
    expect((await send(s.fill(POSTMARK_BOUNCE), 'wrong')).statusCode).toBe(401);
    for (const body of [[], 'Bounce', null, 42]) expect((await send(body)).statusCode).toBe(400);
    // Postmark's documented example as it is (its own ids only), our message id as MessageID, and Metadata that is no message id.
    expect((await send(POSTMARK_BOUNCE)).json().data).toEqual({ received: 0 });
    expect((await send({ ...POSTMARK_BOUNCE, MessageID: s.messageId, Email: 'pm-misc@school.edu' })).json().data).toEqual({ received: 0 });
    for (const value of ['not-a-uuid', 7, { id: 1 }, 'x'.repeat(100_000)]) {
      expect((await send({ ...POSTMARK_BOUNCE, Metadata: { 'quorum-message-id': value } })).statusCode).toBe(200);
    }
    expect((await send({ RecordType: 'Open', ...s.fill({ Metadata: {} }) })).json().data).toEqual({ received: 0 });
    expect(await state(s.company.id, s.invite.id)).toEqual({ status: 'sent', events: [], suppressed: [] });
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

  it('skips what it does not read: message changes, "sent", and status names that are no outcome (never a 5xx)', async () => {
    const s = await sentInvite();
    await t.ctx.db.execute(sql`UPDATE invite_messages SET channel = 'whatsapp', provider_message_id = 'wamid.2' WHERE invite_id = ${s.invite.id}`);
    const payload = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        { id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', messages: [{ from: '16315551234', id: 'wamid.in', type: 'text', text: { body: 'hi' } }] } }] },
        { id: '102290129340398', changes: [{ field: 'messages', value: { statuses: [
          { id: 'wamid.2', status: 'sent', timestamp: '1750263773', recipient_id: '16505551234' },
          { id: 'wamid.2', status: 'constructor', timestamp: '1750263774', recipient_id: '16505551234' },
          { id: 'wamid.2', status: 'toString', timestamp: '1750263775', recipient_id: '16505551234' },
        ] } }] },
        'not an entry',
      ],
    });
    const signature = `sha256=${createHmac('sha256', 'app-secret').update(payload).digest('hex')}`;
    const res = await t.app.inject({ method: 'POST', url: '/callbacks/whatsapp', payload, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ received: 0 });
    expect(await state(s.company.id, s.invite.id)).toEqual({ status: 'sent', events: [], suppressed: [] });
  });
});
