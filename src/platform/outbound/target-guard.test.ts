import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  TargetForbiddenError,
  createGuardedDispatcher,
  isForbiddenAddress,
  validateTargetUrl,
  type ResolveHost,
} from './target-guard.js';

describe('validateTargetUrl', () => {
  it('accepts http and https URLs with a host', () => {
    for (const raw of ['https://hooks.example.com/quorum', 'http://example.com:8080/a?b=c', 'https://[2001:4860::1]/x']) {
      const result = validateTargetUrl(raw);
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.url.href).toBe(new URL(raw).href);
    }
  });

  it.each([
    ['not a url', 'invalid_url'],
    ['/relative/path', 'invalid_url'],
    ['ftp://example.com/', 'unsupported_scheme'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['https://user:pass@example.com/', 'credentials_not_allowed'],
    ['https://user@example.com/', 'credentials_not_allowed'],
    ['https://:pass@example.com/', 'credentials_not_allowed'],
    [`https://example.com/${'a'.repeat(2048)}`, 'too_long'],
  ])('refuses %s with %s', (raw, code) => {
    expect(validateTargetUrl(raw)).toMatchObject({ ok: false, code, message: expect.any(String) });
  });

  it('accepts exactly 2048 characters', () => {
    const base = 'https://example.com/';
    expect(validateTargetUrl(base + 'a'.repeat(2048 - base.length)).ok).toBe(true);
  });
});

describe('isForbiddenAddress', () => {
  it.each([
    // IPv4: loopback, private, link-local and metadata, CGNAT, unspecified, multicast, broadcast, reserved, docs
    '0.0.0.0', '0.255.255.255', '127.0.0.1', '127.255.255.255',
    '10.0.0.0', '10.255.255.255', '172.16.0.0', '172.31.255.255', '192.168.0.0', '192.168.255.255',
    '169.254.0.0', '169.254.169.254', '169.254.255.255', '100.64.0.0', '100.100.100.200', '100.127.255.255',
    '192.0.0.0', '192.0.0.192', '192.0.2.1', '198.51.100.1', '203.0.113.255', '198.18.0.0', '198.19.255.255',
    '192.88.99.1', '224.0.0.1', '239.255.255.255', '240.0.0.1', '255.255.255.255',
    // IPv6: unspecified, loopback, unique local and metadata, link-local, site-local, multicast, docs, special
    '::', '::1', 'fc00::1', 'fd00:ec2::254', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe80::1',
    'febf:ffff::1', 'fec0::1', 'ff02::1', 'ff0e::1', '2001:db8::1', '3fff::1', '100::1', '5f00::1',
    '2001::1', '2001:1ff:ffff::1', '4000::1', '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    // IPv4 embedded in IPv6: compatible, mapped (both spellings), translated, NAT64, local NAT64, 6to4
    '::127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
    '::ffff:0:127.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::808:808',
    '2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:c0a8:101::1', '2002:a00:1::',
    // not an IP address at all: fail closed
    'localhost', '', '127.1', 'example.com',
  ])('%s is forbidden', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8', '1.1.1.1', '1.0.0.0', '9.255.255.255', '11.0.0.0', '126.255.255.255', '128.0.0.0',
    '100.63.255.255', '100.128.0.0', '169.253.255.255', '169.255.0.0', '172.15.255.255', '172.32.0.0',
    '192.167.255.255', '192.169.0.0', '192.0.1.0', '198.17.255.255', '198.20.0.0', '223.255.255.255',
    '2606:4700:4700::1111', '2001:4860:4860::8888', '2001:200::1', '2000::1', '3ffe::1',
    '::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1',
  ])('%s is allowed', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('createGuardedDispatcher', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  const hosts: string[] = [];
  const dispatchers: Agent[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      res.end('ok');
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.close()));
    connections = 0;
    hosts.length = 0;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  function dispatcher(allowPrivate: boolean, resolveHost?: ResolveHost): Agent {
    const created = createGuardedDispatcher({ allowPrivate, connectTimeoutMs: 2000, resolveHost });
    dispatchers.push(created);
    return created;
  }

  async function refusal(url: string, guarded: Agent): Promise<unknown> {
    return request(url, { method: 'POST', body: '{}', dispatcher: guarded }).then(
      () => expect.fail('the request should have been refused'),
      (err: unknown) => err,
    );
  }

  it('refuses a loopback IP literal before connecting', async () => {
    const err = await refusal(`http://127.0.0.1:${port}/hook`, dispatcher(false));
    expect(err).toBeInstanceOf(TargetForbiddenError);
    expect(err).toMatchObject({ code: 'TARGET_FORBIDDEN', message: expect.stringContaining('127.0.0.1') });
    expect(connections).toBe(0);
  });

  it('refuses an IPv6 loopback literal', async () => {
    expect(await refusal(`http://[::1]:${port}/hook`, dispatcher(false))).toMatchObject({ code: 'TARGET_FORBIDDEN' });
  });

  it('refuses localhost, resolved by the system resolver', async () => {
    expect(await refusal(`http://localhost:${port}/hook`, dispatcher(false))).toMatchObject({ code: 'TARGET_FORBIDDEN' });
    expect(connections).toBe(0);
  });

  it('refuses a name that resolves to a private address at connect time (DNS rebinding)', async () => {
    const rebound: ResolveHost = async () => [{ address: '127.0.0.1', family: 4 }];
    const err = await refusal(`https://hooks.example.test:${port}/hook`, dispatcher(false, rebound));
    expect(err).toMatchObject({ code: 'TARGET_FORBIDDEN', message: expect.stringContaining('hooks.example.test') });
    expect(connections).toBe(0);
  });

  it('refuses when any one of several resolved addresses is forbidden', async () => {
    const mixed: ResolveHost = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ];
    const err = await refusal(`http://mixed.example.test:${port}/`, dispatcher(false, mixed));
    expect(err).toMatchObject({ code: 'TARGET_FORBIDDEN', address: '169.254.169.254' });
  });

  it('delivers to a loopback target when private targets are allowed', async () => {
    const response = await request(`http://127.0.0.1:${port}/hook`, { method: 'POST', body: '{}', dispatcher: dispatcher(true) });
    expect(response.statusCode).toBe(200);
    expect(await response.body.text()).toBe('ok');
  });

  it('connects to the address it resolved while keeping the Host of the URL', async () => {
    let lookups = 0;
    const resolveHost: ResolveHost = async (hostname) => {
      lookups++;
      expect(hostname).toBe('receiver.test');
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const response = await request(`http://receiver.test:${port}/hook`, { dispatcher: dispatcher(true, resolveHost) });
    expect(response.statusCode).toBe(200);
    await response.body.dump();
    expect(lookups).toBe(1);
    expect(hosts).toEqual([`receiver.test:${port}`]);
  });

  it('falls back across the vetted addresses like a normal connection', async () => {
    const dualStack: ResolveHost = async () => [
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ];
    const response = await request(`http://dual.test:${port}/`, { dispatcher: dispatcher(true, dualStack) });
    expect(response.statusCode).toBe(200);
    await response.body.dump();
  });
});
