import { connect } from 'node:net';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../harness.js';
import { ContractChecker, type OpenApiDocument } from '../contract.js';
import { errorResponses, ok, successEnvelope } from '../../src/platform/app/envelope.js';
import { httpCases, rawCases, type HttpCase } from './corpus.js';

/** The body route of the corpus until real body routes exist (the platform's rules apply to all). */
async function probeRoutes(app: FastifyInstance) {
  app.post(
    '/_probe/echo',
    {
      config: { scope: null },
      schema: {
        hide: true,
        body: Type.Object({ name: Type.String({ minLength: 1 }), count: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false }),
        response: { 200: successEnvelope(Type.Object({ name: Type.String() })), ...errorResponses('PAYLOAD_TOO_LARGE') },
      },
    },
    async (request) => {
      const body = request.body as { name: string };
      await app.ctx.pool.query('SELECT $1::text, $2::jsonb', [body.name, JSON.stringify(body)]);
      return ok({ name: body.name });
    },
  );
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One answer to raw bytes on a fresh TCP connection: parsed from the wire, whatever the server does. */
function sendRaw(port: number, bytes: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error(`no complete answer in 5 s; got ${JSON.stringify(data.toString('latin1').slice(0, 200))}`)), 5000);
    function parse(): Answer | null {
      const text = data.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = data.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
      if (headers['content-length'] && body.length < Number(headers['content-length'])) return null;
      return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') };
    }
    function finish(error: Error | null, answer?: Answer) {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    }
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      const answer = parse();
      if (answer) finish(null, answer);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const answer = parse();
      finish(answer ? null : new Error(`connection closed without an answer; got ${JSON.stringify(data.toString('latin1').slice(0, 200))}`), answer ?? undefined);
    });
    socket.write(Buffer.from(bytes, 'latin1'));
  });
}

function expectEnveloped(name: string, answer: Answer): void {
  expect(answer.status, `${name}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
  expect(answer.headers['x-request-id'], `${name}: x-request-id`).toBeTruthy();
  if (answer.status < 400) return;
  let body: any;
  expect(() => (body = JSON.parse(answer.body)), `${name}: JSON body ${answer.body.slice(0, 200)}`).not.toThrow();
  expect(body, name).toEqual({ success: false, error: { code: expect.any(String), message: expect.any(String), details: expect.toSatisfy((d: unknown) => d === null || typeof d === 'object') } });
}

let t: TestApp;
let token: string;
let port: number;
let contract: ContractChecker;
beforeAll(async () => {
  t = await startTestApp({ v1Plugins: [probeRoutes] });
  ({ token } = await t.tenant());
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  contract = new ContractChecker(t.app.swagger() as unknown as OpenApiDocument);
});
afterAll(async () => t?.close());

const fill = (text: string, id: string) => text.replaceAll('{token}', token).replaceAll('{id}', id);
const absentId = '01964f6e-2c1a-7b3e-9f00-5a1d2c3b4e5f';

describe('the malformed-request corpus', () => {
  const cases = httpCases();
  const raw = rawCases();

  it('holds at least 300 requests', () => {
    expect(cases.length + raw.length).toBeGreaterThanOrEqual(300);
  });

  it('answers every HTTP case below 500, in the envelope, with x-request-id and within the OpenAPI document', { timeout: 120_000 }, async () => {
    for (const c of cases as HttpCase[]) {
      const headers = Object.fromEntries(Object.entries(c.headers ?? {}).map(([k, v]) => [k, fill(v, absentId)]));
      const url = fill(c.url, absentId);
      // The key is not limited here: the rate limit is a refusal of its own, not what the corpus probes.
      const res = await t.request(c.auth === false ? null : token, { method: c.method as 'GET', url, headers, ...(c.body === undefined ? {} : { payload: c.body }) });
      expectEnveloped(c.name, { status: res.statusCode, headers: res.headers as Answer['headers'], body: res.body });
    }
  });

  it('answers raw bytes on a real socket below 500, in the envelope, with x-request-id', { timeout: 120_000 }, async () => {
    for (const c of raw) {
      const answer = await sendRaw(port, fill(c.bytes, absentId)).catch((error: Error) => {
        throw new Error(`${c.name}: ${error.message}`);
      });
      expectEnveloped(c.name, answer);
      const path = /^[A-Z]+ (\S+)/.exec(c.bytes)?.[1];
      // A 413 here comes from the HTTP parser (headers over 16 KiB), before any route exists.
      if (path?.startsWith('/') && answer.status !== 413) contract.check(/^[A-Z]+/.exec(c.bytes)![0], path, answer.status, answer.body);
    }
  });
});

describe('refusals before any route runs use stable codes', () => {
  const withKey = (line: string, ...headers: string[]) => `${line}\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n${headers.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`;

  it('headers or URL over 16 KiB: 413 PAYLOAD_TOO_LARGE, the status of the one code table', async () => {
    for (const bytes of [withKey(`GET /v1/forms?x=${'a'.repeat(17_000)} HTTP/1.1`), withKey('GET /v1/me HTTP/1.1', `X-Big: ${'a'.repeat(17_000)}`)]) {
      const answer = await sendRaw(port, bytes);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      // GET routes declare this 413 too, so a validating proxy lets it through.
      contract.check('GET', /^GET (\/v1\/\w+)/.exec(bytes)![1], answer.status, answer.body);
    }
  });

  it('bad percent-encoding: 400 VALIDATION_ERROR; a path segment over 100 characters: 404 NOT_FOUND', async () => {
    const bad = await sendRaw(port, withKey('GET /v1/forms/%zz HTTP/1.1', 'X-Request-Id: bad-url-1'));
    expect([bad.status, JSON.parse(bad.body).error.code, bad.headers['x-request-id']]).toEqual([400, 'VALIDATION_ERROR', 'bad-url-1']);
    const long = await sendRaw(port, withKey(`GET /v1/forms/${'a'.repeat(150)} HTTP/1.1`));
    expect([long.status, JSON.parse(long.body).error.code]).toEqual([404, 'NOT_FOUND']);
    expect(long.headers['x-request-id']).toBeTruthy();
  });

  it('dot segments under the static files of /docs: 404 NOT_FOUND, nothing above their folder is read', async () => {
    for (const path of ['/docs/static/../..', '/docs/static/..', '/docs/static/%2e%2e/%2e%2e/package.json']) {
      const answer = await sendRaw(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect([path, answer.status, JSON.parse(answer.body).error.code]).toEqual([path, 404, 'NOT_FOUND']);
      expect(answer.headers['x-request-id']).toBeTruthy();
    }
  });

  it('bytes that are not HTTP: 400 VALIDATION_ERROR', async () => {
    const answer = await sendRaw(port, 'GARBAGE\r\n\r\n');
    expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(answer.headers['x-request-id']).toBeTruthy();
  });
});
