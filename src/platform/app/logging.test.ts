import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../../test/harness.js';
import { createLogger, loggerOptions, wantsPrettyLogs } from '../../lib/logger.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const records = () => lines.map((line) => JSON.parse(line));

// The production logger (the one createContext builds for `quorum start`), only at trace level and into a sink.
const logger = createLogger({ logLevel: 'trace' }, sink);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logger });
});
afterAll(async () => t?.close());

describe('structured logs', () => {
  it('are JSON lines with the request id, and never contain the API key or its secret', async () => {
    const { token } = await t.tenant();
    await t.get(token, '/v1/me', { 'x-request-id': 'log-check-1' });
    await t.get(`${token}x`, '/v1/me', { 'x-request-id': 'log-check-2' });
    expect(records().some((r) => r.reqId === 'log-check-1' && r.res?.statusCode === 200)).toBe(true);
    expect(records().some((r) => r.reqId === 'log-check-2' && r.res?.statusCode === 401)).toBe(true);
    const secret = token.split('_')[2];
    for (const line of lines) expect(line).not.toContain(secret);
  });

  it('are one line per request, with the request, the status and the response time', async () => {
    const { token } = await t.tenant();
    await t.get(token, '/v1/me', { 'x-request-id': 'log-check-once' });
    const mine = records().filter((r) => r.reqId === 'log-check-once');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/v1/me' }, res: { statusCode: 200 }, responseTime: expect.any(Number) });
  });

  it('are readable lines on a terminal, still redacted, and JSON elsewhere', () => {
    expect(wantsPrettyLogs({ production: false }, { isTTY: true })).toBe(true);
    expect(wantsPrettyLogs({ production: false }, { isTTY: false })).toBe(false);
    expect(wantsPrettyLogs({ production: true }, { isTTY: true })).toBe(false);
    const shown: string[] = [];
    const screen = new Writable({
      write(chunk, _encoding, done) {
        shown.push(String(chunk));
        done();
      },
    });
    const pretty = createLogger({ logLevel: 'info' }, screen, { pretty: true });
    const req = { method: 'GET', url: '/v1/me', headers: { authorization: 'Bearer qk_live_leak' } };
    pretty.info({ req, res: { statusCode: 200 }, responseTime: 3.5 }, 'request completed');
    pretty.flush();
    const text = shown.join('');
    expect(text).toMatch(/INFO.*GET \/v1\/me 200 3\.5 ms request completed\n$/);
    expect(() => JSON.parse(text)).toThrow();
    expect(text).not.toContain('leak');
  });

  it('never contain an invite token of a personal link', async () => {
    const token = `Ab-_${'x'.repeat(39)}-_9`;
    await t.request(null, { method: 'GET', url: `/r/v1/invites/${token}`, headers: { 'x-request-id': 'log-check-3' } });
    await t.request(null, { method: 'GET', url: `/u/${token}` });
    expect(records().some((r) => r.reqId === 'log-check-3' && r.req?.url === '/r/v1/invites/[redacted]')).toBe(true);
    for (const line of lines) expect(line).not.toContain(token);
  });

  it('redact credentials wherever a request with its headers is logged', () => {
    logger.warn({ req: { headers: { authorization: 'Bearer qk_live_leak', cookie: 'session=leak', accept: 'text/html' } } }, 'raw request');
    const record = records().find((r) => r.msg === 'raw request');
    expect(record.req.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]', accept: 'text/html' });
    expect(lines.join('\n')).not.toContain('leak');
  });

  it('take their level from LOG_LEVEL', () => {
    expect(loggerOptions(testConfig('postgres://unused', { logLevel: 'warn' })).level).toBe('warn');
    expect(createLogger({ logLevel: 'error' }).isLevelEnabled('warn')).toBe(false);
  });
});
