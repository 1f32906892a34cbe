import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { emit, goalData, startReceiver, subscribe, type Receiver } from '../../../test/webhooks.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  [t, receiver] = await Promise.all([startTestApp(), startReceiver()]);
});
afterAll(async () => Promise.all([t?.close(), receiver?.close()]));

async function backlogAges(): Promise<Record<string, number>> {
  const res = await t.request(null, { method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  expect(res.statusCode).toBe(200);
  const ages = [...res.body.matchAll(/^quorum_backlog_oldest_due_seconds\{kind="(\w+)"\} ([\d.]+)$/gm)];
  return Object.fromEntries(ages.map(([, kind, age]) => [kind, Number(age)]));
}

describe('/metrics: the backlog age of each outbound kind', () => {
  it('is 0 while nothing waits, then how long the oldest due delivery and message have waited', async () => {
    expect(await backlogAges()).toEqual({ webhook: 0, email: 0, whatsapp: 0 });

    const { company, token } = await t.tenant();
    await subscribe(t, company.id, receiver.url());
    await emit(t, company.id, 'form.goal_reached', goalData());
    t.clock.advance(90_000);
    const survey = await createSurvey(t, company.id);
    expect((await t.post(token, `/v1/forms/${survey.form.id}/invites`, { email: 'ana@school.test' })).statusCode).toBe(201);
    expect((await t.post(token, `/v1/forms/${survey.form.id}/invites/send`, { channel: 'email' })).statusCode).toBe(200);
    t.clock.advance(30_000);

    // Nobody sends here (no worker): the delivery has waited 120 s, the message 30 s (and whatever the send events queued, later).
    expect(await backlogAges()).toEqual({ webhook: 120, email: 30, whatsapp: 0 });
  });
});
