import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logger: { level: 'trace', stream: sink, redact: ['req.headers.authorization'] } });
});
afterAll(async () => t?.close());

describe('structured logs', () => {
  it('are JSON lines with the request id, and never contain the API key or its secret', async () => {
    const { token } = await t.tenant();
    await t.get(token, '/v1/me', { 'x-request-id': 'log-check-1' });
    await t.get(`${token}x`, '/v1/me', { 'x-request-id': 'log-check-2' });
    const records = lines.map((line) => JSON.parse(line));
    expect(records.some((r) => r.reqId === 'log-check-1' && r.res?.statusCode === 200)).toBe(true);
    expect(records.some((r) => r.reqId === 'log-check-2' && r.res?.statusCode === 401)).toBe(true);
    const secret = token.split('_')[2];
    for (const line of lines) expect(line).not.toContain(secret);
  });
});
