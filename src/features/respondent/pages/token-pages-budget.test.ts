import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { clientAddress } from '../../../../test/respondent.js';
import { RESPONDENT_REQUESTS_PER_MIN } from '../../../platform/app/address-budget.js';

/** Guessing at tokens through the pages costs the same per-address budget as through /r/v1. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const unknown = 'C'.repeat(43);

it.each([
  ['GET', `/i/${unknown}`],
  ['GET', `/u/${unknown}`],
  ['POST', `/u/${unknown}`],
] as const)('%s %s spends the per-address budget and, past it, answers a 429 page with retry-after', async (method, url) => {
  const remoteAddress = clientAddress();
  const send = () => t.app.inject({ method, url, remoteAddress });
  for (let i = 0; i < RESPONDENT_REQUESTS_PER_MIN; i++) {
    const res = await send();
    expect(res.statusCode).toBe(404);
    expect(res.headers['ratelimit-remaining']).toBe(String(RESPONDENT_REQUESTS_PER_MIN - 1 - i));
  }
  const refused = await send();
  expect(refused.statusCode).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(refused.headers['content-type']).toContain('text/html');
  // the respondent API shares the budget: the address is spent there as well
  expect((await t.app.inject({ url: `/r/v1/invites/${unknown}`, remoteAddress })).statusCode).toBe(429);
  // another address is not held back
  expect((await t.app.inject({ method, url, remoteAddress: clientAddress() })).statusCode).toBe(404);
}, 60_000);
