import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';

// The rate-limit headers are promised on every answer to a key, refusals before any route runs included.
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  ({ token } = await t.tenant());
});
afterAll(async () => t?.close());

const json = { 'content-type': 'application/json' };
const refusals: [string, Parameters<TestApp['request']>[1], number, string][] = [
  ['an unknown route', { method: 'GET', url: '/v1/nope' }, 404, 'NOT_FOUND'],
  ['bad percent-encoding', { method: 'GET', url: '/v1/forms/%zz' }, 400, 'VALIDATION_ERROR'],
  ['a path segment over 100 characters', { method: 'GET', url: `/v1/forms/${'a'.repeat(150)}` }, 404, 'NOT_FOUND'],
  ['malformed JSON', { method: 'POST', url: '/v1/enrollments/import', headers: json, payload: '{"mode":' }, 400, 'VALIDATION_ERROR'],
  ['a body that is not JSON', { method: 'POST', url: '/v1/enrollments/import', headers: { 'content-type': 'text/plain' }, payload: 'mode=sync' }, 400, 'VALIDATION_ERROR'],
  ['a body over its limit', { method: 'POST', url: '/v1/forms/00000000-0000-7000-8000-000000000000/invites', headers: json, payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }) }, 413, 'PAYLOAD_TOO_LARGE'],
];

it.each(refusals)('answers %s with its code and the ratelimit-* headers of the key', async (_name, request, status, code) => {
  const res = await t.request(token, request);
  expect([res.statusCode, res.json().error.code]).toEqual([status, code]);
  for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers[header], header).toMatch(/^\d+$/);
});
