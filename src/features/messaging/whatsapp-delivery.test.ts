import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { startOutboundLoop } from '../../platform/outbound/loop.js';
import { findWhatsappChannel } from '../message-channels/index.js';
import { removeWhatsappChannel, setWhatsappChannel } from './set-whatsapp-channel.js';
import { whatsappKind } from './whatsapp-kind.js';

/** A local HTTP server standing in for the Graph API and a gateway; `statuses` answers the next requests. */
const received: { url: string; auth: string | undefined; body: any }[] = [];
/** Every request that reached the server, whatever it was answered. */
const arrived: { url: string; auth: string | undefined }[] = [];
let statuses: number[] = [];
let accepted = 0;
let server: Server;
let base = '';
let t: TestApp;

const readBody = (req: IncomingMessage) => new Promise<string>((resolve) => {
  let data = '';
  req.on('data', (chunk) => (data += chunk));
  req.on('end', () => resolve(data));
});

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    arrived.push({ url: req.url!, auth: req.headers.authorization });
    const status = statuses.shift() ?? 200;
    if (status === 200) received.push({ url: req.url!, auth: req.headers.authorization, body: JSON.parse(body) });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(status === 200 ? { messages: [{ id: `wamid.${++accepted}` }] } : { error: 'no' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApp({ config: { whatsappGraphUrl: `${base}/graph` } });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

/** The worker's context with WEBHOOK_ALLOW_PRIVATE_TARGETS off (tests run with it on). */
const guarded = () => ({ ...t.ctx, config: { ...t.ctx.config, webhookAllowPrivateTargets: false } });

async function setup(provider: 'cloud-api' | 'gateway', gatewayUrl = `${base}/gateway`) {
  const tenant = await t.tenant();
  const survey = await createSurvey(t, tenant.company.id);
  await setWhatsappChannel(t.ctx.db, t.ctx, { companyId: tenant.company.id, ...provider === 'cloud-api'
    ? { provider, token: 'graph-token', settings: { phoneNumberId: '555', templates: ['survey_invite'] } }
    : { provider, token: 'gw-token', settings: { url: gatewayUrl, text: 'Hi {{name}}: {{url}}' } } });
  const basePath = `/v1/forms/${survey.form.id}/invites`;
  const invite = (await t.post(tenant.token, basePath, { phone: '+5511987654321', name: 'Ana' })).json().data;
  const send = (body: object) => t.post(tenant.token, `${basePath}/send`, { channel: 'whatsapp', ...body });
  const drain = async (ctx = t.ctx) => {
    const loop = await startOutboundLoop(ctx, whatsappKind(ctx), { listen: false, pollIntervalMs: null });
    await loop.drain();
    await loop.stop();
  };
  const state = async () => {
    const { rows } = await t.ctx.db.execute<{ status: string; provider_message_id: string | null; message: string; attempts: number; last_error: string | null }>(
      sql`SELECT i.status, m.provider_message_id, m.status AS message, m.attempts, m.last_error FROM invites i JOIN invite_messages m ON m.invite_id = i.id WHERE i.id = ${invite.id}`,
    );
    return rows[0];
  };
  return { ...tenant, invite, send, drain, state };
}

describe('WhatsApp through the outbound loop', () => {
  it('Cloud API: a template message with the rendered variables, the sealed token as bearer; the wamid is kept', async () => {
    received.length = 0;
    const s = await setup('cloud-api');
    await s.send({ template: { name: 'survey_invite', language: 'pt_BR', variables: { '2': '{{url}}', '1': '{{name}}' } } });
    await s.drain();
    expect(received).toEqual([
      {
        url: '/graph/555/messages',
        auth: 'Bearer graph-token',
        body: {
          messaging_product: 'whatsapp',
          to: '5511987654321',
          type: 'template',
          template: { name: 'survey_invite', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: s.invite.url }] }] },
        },
      },
    ]);
    expect(await s.state()).toMatchObject({ status: 'sent', provider_message_id: 'wamid.1' });
  });

  it('gateway: plain text with a bearer token; a 429 and a 503 are retried, then it is sent once', async () => {
    received.length = 0;
    const s = await setup('gateway');
    statuses = [429, 503];
    await s.send({});
    await s.drain();
    t.clock.advance(2 * 60_000);
    await s.drain();
    t.clock.advance(10 * 60_000);
    await s.drain();
    expect(received).toEqual([{ url: '/gateway', auth: 'Bearer gw-token', body: { to: '+5511987654321', text: `Hi Ana: ${s.invite.url}` } }]);
    expect((await s.state()).status).toBe('sent');
  });

  it('one loop across channel changes: a new token is used at the next message, a removed channel fails it for good', async () => {
    received.length = 0;
    const s = await setup('gateway');
    const loop = await startOutboundLoop(t.ctx, whatsappKind(t.ctx), { listen: false, pollIntervalMs: null });
    await s.send({});
    await loop.drain();
    await setWhatsappChannel(t.ctx.db, t.ctx, { companyId: s.company.id, provider: 'gateway', token: 'rotated', settings: { url: `${base}/gateway` } });
    await s.send({ filter: { statuses: ['sent'] } });
    await loop.drain();
    expect(received.map((r) => r.auth)).toEqual(['Bearer gw-token', 'Bearer rotated']);
    await s.send({ filter: { statuses: ['sent'] } });
    expect(await removeWhatsappChannel(t.ctx.db, t.ctx, { companyId: s.company.id })).toBe(true);
    await loop.drain();
    await loop.stop();
    expect(received).toHaveLength(2);
    const { rows } = await t.ctx.db.execute<{ status: string; last_error: string }>(
      sql`SELECT status, last_error FROM invite_messages WHERE invite_id = ${s.invite.id} ORDER BY status`,
    );
    expect(rows).toEqual([
      { status: 'failed', last_error: 'the WhatsApp channel is no longer configured' },
      { status: 'sent', last_error: null },
      { status: 'sent', last_error: null },
    ]);
  });

  it('a 400 from the provider is final: invite.failed (send_failed)', async () => {
    const s = await setup('gateway');
    statuses = [400];
    await s.send({});
    await s.drain();
    expect((await s.state()).status).toBe('failed');
    const { rows } = await t.ctx.db.execute<{ data: any }>(sql`SELECT data FROM events WHERE company_id = ${s.company.id} AND type = 'invite.failed'`);
    expect(rows).toEqual([{ data: expect.objectContaining({ channel: 'whatsapp', failReason: 'send_failed' }) }]);
  });
});

describe('a WhatsApp target on a private address, with private targets not allowed', () => {
  const failedEvents = async (companyId: string) =>
    (await t.ctx.db.execute<{ data: any }>(sql`SELECT data FROM events WHERE company_id = ${companyId} AND type = 'invite.failed'`)).rows;

  /** Sends one message through a guarded worker, twice a day apart: refused once, never retried. */
  async function refused(s: Awaited<ReturnType<typeof setup>>, body: object) {
    arrived.length = 0;
    await s.send(body);
    await s.drain(guarded());
    t.clock.advance(24 * 3_600_000);
    await s.drain(guarded());
    expect(arrived).toEqual([]);
    expect(await s.state()).toMatchObject({ status: 'failed', message: 'failed', attempts: 1, last_error: expect.stringMatching(/refused\.$/) });
    expect(await failedEvents(s.company.id)).toEqual([{ data: expect.objectContaining({ channel: 'whatsapp', failReason: 'send_failed' }) }]);
  }

  it('Cloud API: the Graph URL on loopback is refused before the request and its token leave', async () => {
    const s = await setup('cloud-api');
    await refused(s, { template: { name: 'survey_invite', language: 'pt_BR' } });
    expect((await s.state()).last_error).toContain('127.0.0.1');
  });

  it('gateway: an IP literal saved while private targets were allowed is refused when sending', async () => {
    await refused(await setup('gateway'), {});
  });

  it('gateway: a name that resolves to loopback (localhost) is refused at connect time', async () => {
    const s = await setup('gateway', `${base.replace('127.0.0.1', 'localhost')}/gateway`);
    await refused(s, {});
    expect((await s.state()).last_error).toMatch(/^Target localhost resolves to /);
  });

  it('keeps the sealed token when a change of settings gives none, for the same provider only; bounds the free text', async () => {
    const { company } = await t.tenant();
    const set = (input: object) => setWhatsappChannel(t.ctx.db, t.ctx, { companyId: company.id, provider: 'gateway', settings: { url: 'https://gateway.example/send' }, ...input });
    await expect(set({})).rejects.toMatchObject({ details: { fields: [expect.objectContaining({ path: 'token', code: 'required' })] } });
    const first = await set({ token: 'gw-secret' });
    expect(first).toEqual({ channel: { provider: 'gateway', settings: { url: 'https://gateway.example/send' }, tokenSet: true }, changes: { provider: { from: null, to: 'gateway' }, url: { from: null, to: 'https://gateway.example/send' } }, tokenReplaced: true });
    const sealed = (await findWhatsappChannel(t.ctx.db, t.ctx, { companyId: company.id }))!.credentialsSealed;
    const second = await set({ settings: { url: 'https://gateway.example/v2', text: 'Hi {{url}}' } });
    expect(second).toMatchObject({ changes: { url: { from: 'https://gateway.example/send', to: 'https://gateway.example/v2' }, text: { from: null, to: 'Hi {{url}}' } }, tokenReplaced: false });
    expect(JSON.stringify(second)).not.toContain('gw-secret');
    expect((await findWhatsappChannel(t.ctx.db, t.ctx, { companyId: company.id }))!.credentialsSealed).toEqual(sealed);
    await expect(set({ provider: 'cloud-api', settings: { phoneNumberId: '555' } })).rejects.toMatchObject({ details: { fields: [expect.objectContaining({ path: 'token', code: 'required' })] } });
    await expect(set({ token: 'x'.repeat(4097), settings: { url: 'https://gateway.example/send', text: 'y'.repeat(1001), templates: ['Bad Name'] } })).rejects.toMatchObject({
      details: { fields: ['token', 'templates[0]', 'text'].map((path) => expect.objectContaining({ path })) },
    });
  });

  it('gateway: a private IP literal, an over-long URL or one with credentials is refused when the channel is set', async () => {
    const { company } = await t.tenant();
    const set = (url: string, ctx = guarded()) => setWhatsappChannel(t.ctx.db, ctx, { companyId: company.id, provider: 'gateway', token: 'gw-token', settings: { url } });
    for (const [url, code] of [
      [`${base}/gateway`, 'forbidden_target'],
      ['http://[::1]/gateway', 'forbidden_target'],
      ['http://169.254.169.254/latest', 'forbidden_target'],
      [`https://gateway.example/${'a'.repeat(2048)}`, 'too_long'],
      ['https://user:pass@gateway.example/', 'invalid_value'],
      ['ftp://gateway.example/', 'invalid_value'],
      ['not a url', 'invalid_format'],
    ]) {
      await expect(set(url), url).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'url', code, message: expect.any(String) }] } });
    }
    expect(await findWhatsappChannel(t.ctx.db, t.ctx, { companyId: company.id })).toBeNull();
    await expect(set('https://gateway.example/send')).resolves.toMatchObject({ channel: { provider: 'gateway', tokenSet: true } });
    await expect(set(`${base}/gateway`, t.ctx)).resolves.toMatchObject({ changes: { url: { from: 'https://gateway.example/send', to: `${base}/gateway` } }, tokenReplaced: true });
  });
});
