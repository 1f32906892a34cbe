import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { devMailbox, listDevMail } from './dev-mailbox.js';

const LINK = 'http://localhost:3000/i/personal-token-that-answers-as-the-invitee';
let t: TestApp;
/** Behind TRUST_PROXY=true, where X-Forwarded-For decides request.ip. */
let proxied: TestApp;
let mailId: string;

beforeAll(async () => {
  [t, proxied] = await Promise.all([startTestApp(), startTestApp({ config: { trustProxy: true } })]);
  for (const app of [t, proxied]) {
    await devMailbox(app.ctx.db, app.ctx).send({ from: 'Quorum <no-reply@localhost>', to: 'ana@school.edu', subject: 'Your survey', text: LINK, html: `<a href="${LINK}">Answer</a>` });
  }
  [{ id: mailId }] = await listDevMail(t.ctx.db, t.ctx);
});
afterAll(async () => Promise.all([t?.close(), proxied?.close()]));

const open = (app: TestApp, url: string, remoteAddress: string, headers: InjectOptions['headers'] = {}) => app.app.inject({ url, remoteAddress, headers });

function expectRefused(res: Awaited<ReturnType<typeof open>>) {
  expect(res.statusCode).toBe(403);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.body).toContain('loopback');
  expect(res.body).not.toContain('ana@school.edu');
  expect(res.body).not.toContain('personal-token');
}

describe('/dev/mail', () => {
  it('answers loopback clients, v4 and v6, and says on the page that only they may open it', async () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      const list = await open(t, '/dev/mail', address);
      expect(list.statusCode, address).toBe(200);
      expect(list.body).toContain('answer clients on this machine (loopback) only');
      expect(list.body).toContain('ana@school.edu');
      expect((await open(t, `/dev/mail/${mailId}`, address)).body).toContain('personal-token');
    }
  });

  it('refuses every other client, public or on the local network, the list and each message alike', async () => {
    for (const address of ['203.0.113.5', '10.0.0.8', '192.168.1.20', 'fd00::1', '::ffff:192.168.1.20']) {
      expectRefused(await open(t, '/dev/mail', address));
      expectRefused(await open(t, `/dev/mail/${mailId}`, address));
      expectRefused(await open(t, '/dev/mail/00000000-0000-7000-8000-000000000000', address));
    }
  });

  it('believes no spoofed forwarding header, whatever TRUST_PROXY says', async () => {
    for (const app of [t, proxied]) {
      for (const headers of [{ 'x-forwarded-for': '127.0.0.1' }, { 'x-forwarded-for': '::1, 127.0.0.1' }, { forwarded: 'for=127.0.0.1' }]) {
        expectRefused(await open(app, '/dev/mail', '203.0.113.5', headers));
      }
    }
  });

  it('refuses a remote client relayed by a proxy on this machine, and lets a local one through', async () => {
    for (const app of [t, proxied]) {
      for (const headers of [{ 'x-forwarded-for': '203.0.113.5' }, { 'x-forwarded-for': '127.0.0.1, 198.51.100.7' }, { forwarded: 'for="[2001:db8::1]:4711"' }, { 'x-forwarded-for': 'unknown' }]) {
        expectRefused(await open(app, '/dev/mail', '127.0.0.1', headers));
      }
      for (const headers of [{ 'x-forwarded-for': '127.0.0.1' }, { 'x-forwarded-for': '[::1]:51000' }, { forwarded: 'for="[::1]";proto=http' }]) {
        expect((await open(app, '/dev/mail', '127.0.0.1', headers)).statusCode).toBe(200);
      }
    }
  });
});
