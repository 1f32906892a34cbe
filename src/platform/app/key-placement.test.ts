import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createLogger } from '../../lib/logger.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
let token: string;
let port: number;
beforeAll(async () => {
  // The production logger options, into a sink: what `quorum start` would write.
  t = await startTestApp({ logger: createLogger({ logLevel: 'info' }, sink) });
  ({ token } = await t.tenant());
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => t?.close());

/** A real HTTP request: an array header value goes out as repeated header lines. */
function get(path: string, authorization: string | string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // The flat [name, value, ...] form sends each value as its own header line.
    const headers = (Array.isArray(authorization) ? authorization : [authorization]).flatMap((value) => ['authorization', value]);
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('where a key may be', () => {
  it('two Authorization headers are ambiguous: 401, whichever comes first', async () => {
    expect((await get('/v1/me', `Bearer ${token}`)).status).toBe(200);
    for (const pair of [[`Bearer ${token}`, 'Bearer qk_other'], ['Bearer qk_other', `Bearer ${token}`], [`Bearer ${token}`, `Bearer ${token}`]]) {
      const res = await get('/v1/me', pair);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body).error.code).toBe('UNAUTHORIZED');
    }
  });

  it('a key in the query string is no credential (401), even beside a valid header, and never reaches the log', async () => {
    const secret = token.split('_')[2];
    for (const query of [`api_key=${token}`, `api_key=${encodeURIComponent(token).replaceAll('_', '%5F')}`]) {
      const alone = await t.get(null, `/v1/me?${query}`, { 'x-request-id': 'key-in-url' });
      expect(alone.statusCode).toBe(401);
      const beside = await t.get(token, `/v1/me?${query}`);
      expect(beside.statusCode).toBe(401);
    }
    const logged = lines.filter((line) => line.includes('key-in-url'));
    expect(logged.some((line) => line.includes('/v1/me?api_key=[redacted]'))).toBe(true);
    for (const line of lines) expect(line).not.toContain(secret);
  });
});
