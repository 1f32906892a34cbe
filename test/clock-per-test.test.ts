import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { createSurvey } from './responses.js';

// One app for the file, as most test files have: each test must still start from the clock the
// setup left, never from where the test before it moved it.
let t: TestApp;
let invites: string;
let token: string;
const SETUP_TIME = '2026-05-01T12:00:00.000Z';
beforeAll(async () => {
  t = await startTestApp();
  const tenant = await t.tenant();
  token = tenant.token;
  invites = `/v1/forms/${(await createSurvey(t, tenant.company.id)).form.id}/invites`;
  t.clock.set(SETUP_TIME);
});
afterAll(async () => t?.close());

describe('a clock per test', () => {
  it('lets a test move the clock two days on', () => {
    t.clock.advance(2 * 86_400_000);
    expect(t.clock.now().toISOString()).toBe('2026-05-03T12:00:00.000Z');
  });

  it('gives the next test the clock the setup left: an invite expiring tomorrow is still in the future', async () => {
    expect(t.clock.now().toISOString()).toBe(SETUP_TIME);
    const res = await t.post(token, invites, { email: 'tomorrow@school.edu', expiresAt: '2026-05-02T12:00:00.000Z' });
    expect(res.statusCode, res.body).toBe(201);
  });
});
