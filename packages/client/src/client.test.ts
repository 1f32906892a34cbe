import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addResponses, createSurvey } from '../../../test/responses.js';
import { subscribe, webhookTestbed } from '../../../test/webhooks.js';
import { createQuorumClient, QuorumError, TIMEOUT_PAUSE_MS, verifyWebhook, WebhookVerificationError } from './index.js';

/** The client as an integrator builds it, against the real service listening on a port. */
const bed = webhookTestbed();
let baseUrl: string;
beforeAll(async () => {
  const address = await bed.t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `${address}/v1`;
});

/** Waits by moving the service's clock (its rate limit and expiries read it), and records each wait. */
function clockSleep(waits: number[]) {
  return async (ms: number) => {
    waits.push(ms);
    bed.t.clock.advance(ms);
  };
}

async function tenantClient(options: { rateLimitPerMin?: number; fetch?: typeof fetch; waits?: number[]; timeoutMs?: number } = {}) {
  const company = await bed.t.company();
  const { token } = await bed.t.key(company.id, { rateLimitPerMin: options.rateLimitPerMin });
  const waits = options.waits ?? [];
  const client = createQuorumClient({ baseUrl, apiKey: token, sleep: clockSleep(waits), fetch: options.fetch, timeoutMs: options.timeoutMs });
  return { company, client, waits };
}

const count = async (query: ReturnType<typeof sql>) => Number((await bed.t.ctx.db.execute<{ n: number }>(query)).rows[0].n);

describe('@quorum/client against the service', () => {
  it('scans 1,000 responses with one for await, page after page', async () => {
    const { company, client } = await tenantClient();
    const survey = await createSurvey(bed.t, company.id);
    await addResponses(bed.t, survey, 1000);
    const seen = new Set<string>();
    for await (const response of client.responses(survey.form.id, { include: 'answers' })) {
      expect(response.formId).toBe(survey.form.id);
      seen.add(response.id);
    }
    expect(seen.size).toBe(1000);
    expect((await client.me()).company.id).toBe(company.id);
  }, 120_000);

  it('sends with an idempotency key its retry reuses: a lost answer sends once', async () => {
    const sent: Request[] = [];
    let dropNext = true;
    // The first send's answer is lost after the service did the work: the client must retry with the same key.
    const lossy: typeof fetch = async (input, init) => {
      const request = new Request(input as Request, init);
      sent.push(request.clone());
      const response = await fetch(request);
      if (request.url.endsWith('/send') && dropNext) {
        dropNext = false;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    };
    const { company, client, waits } = await tenantClient({ fetch: lossy });
    const survey = await createSurvey(bed.t, company.id);
    const a = await client.createInvite(survey.form.id, { email: 'a@school.test' });
    await client.createInvite(survey.form.id, { email: 'b@school.test' });
    const result = await client.sendInvites(survey.form.id, { channel: 'email' });
    expect(result.queued).toBe(2);
    const sends = sent.filter((r) => r.url.endsWith('/send'));
    expect(sends).toHaveLength(2);
    expect(sends[0].headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(sends[1].headers.get('idempotency-key')).toBe(sends[0].headers.get('idempotency-key'));
    expect(waits).toHaveLength(1);
    expect(await count(sql`SELECT count(*) AS n FROM invite_messages WHERE company_id = ${company.id}`)).toBe(2);
    // Each POST has its own key: the two creations were two requests.
    const creates = sent.filter((r) => r.method === 'POST' && r.url.endsWith('/invites'));
    expect(new Set(creates.map((r) => r.headers.get('idempotency-key'))).size).toBe(2);

    const revoked = await client.revokeInvite(a.id);
    expect(revoked.status).toBe('revoked');
    const invites = [];
    for await (const invite of client.invites(survey.form.id, { status: 'revoked' })) invites.push(invite.id);
    expect(invites).toEqual([a.id]);
  });

  it('throws typed errors by code, and waits retry-after on 429 before repeating', async () => {
    const { client, waits } = await tenantClient({ rateLimitPerMin: 1 });
    const error = await client.revokeInvite('00000000-0000-7000-8000-000000000000').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(QuorumError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((error as QuorumError).requestId).toBeTruthy();
    // The key's one request a minute is spent: the client waits what retry-after says, then succeeds.
    const me = await client.me();
    expect(me.apiKey.rateLimitPerMin).toBe(1);
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0] % 1000).toBe(0);
  });

  it('after a timed-out attempt waits at least 60 seconds before repeating', async () => {
    let calls = 0;
    const slowOnce: typeof fetch = (input, init) => {
      calls += 1;
      if (calls > 1) return fetch(input as Request, init);
      // Never answers: only the client's timeout ends it.
      return new Promise((_resolve, reject) => (input as Request).signal.addEventListener('abort', () => reject(new Error('aborted'))));
    };
    const { client, waits } = await tenantClient({ fetch: slowOnce, timeoutMs: 200 });
    await client.me();
    expect(waits).toEqual([TIMEOUT_PAUSE_MS]);
  });

  it('verifies a real webhook delivery and returns the typed event; a tampered body is refused', async () => {
    const { company, client } = await tenantClient();
    const subscription = await subscribe(bed.t, company.id, bed.receiver.url(), ['invite.revoked']);
    const survey = await createSurvey(bed.t, company.id);
    const invite = await client.createInvite(survey.form.id, { email: 'hook@school.test', externalId: 'EXT-9' });
    await client.revokeInvite(invite.id);
    await bed.loop.drain();
    const [delivery] = bed.receiver.received;
    const event = verifyWebhook(delivery.body, delivery.headers, subscription.secret, { now: bed.t.clock.now() });
    expect(event.type).toBe('invite.revoked');
    if (event.type === 'invite.revoked') expect(event.data).toMatchObject({ inviteId: invite.id, respondent: { externalId: 'EXT-9' } });
    expect(() => verifyWebhook(delivery.body.replace('EXT-9', 'EXT-0'), delivery.headers, subscription.secret, { now: bed.t.clock.now() })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(delivery.body, delivery.headers, subscription.secret)).toThrow(/too far/);
  });
});

